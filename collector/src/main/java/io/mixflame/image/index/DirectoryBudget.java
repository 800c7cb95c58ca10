package io.mixflame.image.index;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps a module index directory under its bound in bytes: before a file is added, the index files least recently
 * used (by modification time, which a read refreshes) are removed until the new one fits, and temporary files that a
 * dead writer left are removed on the way. Only files this cache names (its extension, its temporary suffix) are
 * counted or removed: the directory may hold anything else.
 */
final class DirectoryBudget {
    /** A writer takes well under a second; a temporary file this old was left by a process that died writing it. */
    private static final long STALE_TEMPORARY_MILLIS = 10 * 60 * 1000L;
    /** A directory with more entries than this is not ours to list whole; the bound counts the first ones. */
    private static final int MAX_LISTED = 10_000;

    private DirectoryBudget() {
    }

    /**
     * Makes room for {@code incoming} more bytes within {@code maxBytes}; false, removing nothing, when even removing
     * every index would not (the new file is then not written).
     */
    static boolean makeRoom(Path directory, long incoming, long maxBytes) throws IOException {
        List<Entry> indexes = new ArrayList<>();
        long total = 0;
        long now = System.currentTimeMillis();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            int listed = 0;
            for (Path p : files) {
                if (++listed > MAX_LISTED) {
                    break;
                }
                String name = p.getFileName().toString();
                boolean index = name.endsWith(ModuleIndexKey.EXTENSION);
                boolean temporary = isTemporary(name);
                if (!index && !temporary) {
                    continue;
                }
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (IOException e) {
                    continue; // removed by another process meanwhile
                }
                long modified = a.lastModifiedTime().toMillis();
                if (temporary) {
                    if (now - modified > STALE_TEMPORARY_MILLIS) {
                        Files.deleteIfExists(p);
                    } else {
                        total += a.size(); // another writer's file, soon an index
                    }
                    continue;
                }
                indexes.add(new Entry(p, a.size(), modified));
                total += a.size();
            }
        }
        if (total + incoming <= maxBytes) {
            return true;
        }
        long removable = 0;
        for (Entry e : indexes) {
            removable += e.size();
        }
        if (total - removable + incoming > maxBytes) {
            return false; // removing every index would not make room: keep them
        }
        indexes.sort(Comparator.comparingLong(Entry::modified));
        for (Entry e : indexes) {
            Files.deleteIfExists(e.path());
            total -= e.size();
            if (total + incoming <= maxBytes) {
                return true;
            }
        }
        return false;
    }

    private static boolean isTemporary(String name) {
        return name.endsWith(ModuleIndexWriter.TEMPORARY) && name.contains(ModuleIndexKey.EXTENSION + ".");
    }

    private record Entry(Path path, long size, long modified) {
    }
}
