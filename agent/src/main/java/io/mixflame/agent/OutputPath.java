package io.mixflame.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Expands the {@code file=} template: {@code %p} becomes the process id and {@code %t} a timestamp, as in
 * async-profiler. A looping profile without {@code %t} gets one before the extension, so that periods do not
 * overwrite each other.
 */
final class OutputPath {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final int MAX_SUFFIX = 999;
    private static final String[] EXTENSIONS = {".pb.gz", ".collapsed", ".html", ".pprof", ".txt", ".jfr"};

    private OutputPath() {
    }

    /** The path a profile finished at {@code time} is written to. */
    static Path expand(String template, long pid, LocalDateTime time, boolean looping) {
        String t = template;
        if (looping && !t.contains("%t")) {
            t = insertBeforeExtension(t, "-%t");
        }
        return Path.of(t.replace("%p", Long.toString(pid)).replace("%t", STAMP.format(time)));
    }

    /**
     * {@code path} when no file is there, else the first of {@code name-1.ext}, {@code name-2.ext}, … that is free
     * (after {@value #MAX_SUFFIX} tries, {@code path} itself).
     */
    static Path unused(Path path) {
        if (!Files.exists(path)) {
            return path;
        }
        String name = path.getFileName().toString();
        for (int n = 1; n <= MAX_SUFFIX; n++) {
            Path candidate = path.resolveSibling(insertBeforeExtension(name, "-" + n));
            if (!Files.exists(candidate)) {
                return candidate;
            }
        }
        return path;
    }

    private static String insertBeforeExtension(String name, String insert) {
        for (String ext : EXTENSIONS) {
            if (name.endsWith(ext)) {
                return name.substring(0, name.length() - ext.length()) + insert + ext;
            }
        }
        return name + insert;
    }
}
