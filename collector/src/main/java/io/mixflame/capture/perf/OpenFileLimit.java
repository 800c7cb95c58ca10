package io.mixflame.capture.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's soft limit on open files ({@code RLIMIT_NOFILE}), from {@code /proc/self/limits}: descriptors are
 * shared with everything else the service opens, so the capture plans its events within a part of it.
 */
public final class OpenFileLimit {
    private static final Path LIMITS = Path.of("/proc/self/limits");
    /** Assumed when the limit cannot be read: the usual soft default. */
    static final long FALLBACK = 1024;

    private OpenFileLimit() {
    }

    /** The soft limit; {@link Long#MAX_VALUE} when unlimited, {@link #FALLBACK} when unreadable. */
    public static long soft() {
        try {
            // By lines: Files.readString can stop early on a /proc file, whose size is 0.
            return parse(String.join("\n", Files.readAllLines(LIMITS, StandardCharsets.US_ASCII)));
        } catch (IOException | RuntimeException e) {
            return FALLBACK;
        }
    }

    /** The soft limit on the "Max open files" line of a limits file. */
    static long parse(String limits) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max open files")) {
                String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                return "unlimited".equals(fields[0]) ? Long.MAX_VALUE : Long.parseLong(fields[0]);
            }
        }
        return FALLBACK;
    }
}
