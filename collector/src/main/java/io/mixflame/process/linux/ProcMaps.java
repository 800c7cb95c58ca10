package io.mixflame.process.linux;

import io.mixflame.process.MemoryMapping;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code /proc/PID/maps}. */
public final class ProcMaps {
    private ProcMaps() {
    }

    /**
     * The mappings of a process, in address order.
     *
     * @throws IOException when the process is gone or its maps are not readable
     */
    public static List<MemoryMapping> read(long pid) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"), StandardCharsets.UTF_8);
        List<MemoryMapping> result = new ArrayList<>(lines.size());
        for (String line : lines) {
            MemoryMapping m = parse(line);
            if (m != null) {
                result.add(m);
            }
        }
        return result;
    }

    /**
     * Parses one line; null when it is not in the kernel's format. By hand rather than with a regular expression:
     * the maps are read again whenever a library or a thread's stack appears, and a pattern per line made that a
     * visible part of the profiler's cost.
     */
    static MemoryMapping parse(String line) {
        // 7f2c1a000000-7f2c1a021000 r-xp 00000000 08:01 1234   /usr/lib/x86_64-linux-gnu/libc.so.6
        Fields f = new Fields(line);
        String range = f.next();
        String perms = f.next();
        String offset = f.next();
        String device = f.next();
        String inode = f.next();
        if (inode == null || device.isEmpty() || perms.length() < 4) {
            return null;
        }
        int dash = range.indexOf('-');
        if (dash < 0) {
            return null;
        }
        try {
            long start = Long.parseUnsignedLong(range, 0, dash, 16);
            long end = Long.parseUnsignedLong(range, dash + 1, range.length(), 16);
            long fileOffset = Long.parseUnsignedLong(offset, 16);
            long node = Long.parseLong(inode);
            return new MemoryMapping(start, end, perms.charAt(0) == 'r', perms.charAt(1) == 'w',
                    perms.charAt(2) == 'x', fileOffset, node, f.rest());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Space-separated fields of a line, then the rest of it (a path may hold spaces). */
    private static final class Fields {
        private final String line;
        private int pos;

        Fields(String line) {
            this.line = line;
        }

        String next() {
            skipSpaces();
            if (pos >= line.length()) {
                return null;
            }
            int start = pos;
            while (pos < line.length() && line.charAt(pos) != ' ' && line.charAt(pos) != '\t') {
                pos++;
            }
            return line.substring(start, pos);
        }

        String rest() {
            skipSpaces();
            return pos >= line.length() ? "" : line.substring(pos).stripTrailing();
        }

        private void skipSpaces() {
            while (pos < line.length() && (line.charAt(pos) == ' ' || line.charAt(pos) == '\t')) {
                pos++;
            }
        }
    }
}
