package io.mixflame.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code /proc/PID/maps}. */
public final class MemoryMaps {
    private MemoryMaps() {
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

    /** Parses one line; null when it is not in the kernel's format. */
    static MemoryMapping parse(String line) {
        // 7f2c1a000000-7f2c1a021000 r-xp 00000000 08:01 1234   /usr/lib/x86_64-linux-gnu/libc.so.6
        String[] f = line.trim().split("\\s+", 6);
        if (f.length < 5) {
            return null;
        }
        int dash = f[0].indexOf('-');
        if (dash < 0 || f[1].length() < 4) {
            return null;
        }
        try {
            long start = Long.parseUnsignedLong(f[0].substring(0, dash), 16);
            long end = Long.parseUnsignedLong(f[0].substring(dash + 1), 16);
            long offset = Long.parseUnsignedLong(f[2], 16);
            long inode = Long.parseLong(f[4]);
            String path = f.length == 6 ? f[5] : "";
            String perms = f[1];
            return new MemoryMapping(start, end, perms.charAt(0) == 'r', perms.charAt(1) == 'w', perms.charAt(2) == 'x',
                    offset, inode, path);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
