package io.mixflame.examples.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time of this process's finished children, from {@code cutime + cstime} in {@code /proc/self/stat}. The
 * harness runs one child at a time, so the growth across a run is that child's whole CPU time: start-up, the
 * profiler's threads and the profile it writes at exit included.
 */
final class ChildCpuTime {
    /** Clock ticks per second of {@code /proc} times: USER_HZ, 100 on every Linux the JDK runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private ChildCpuTime() {
    }

    /** Milliseconds of CPU used by children that have been waited for. */
    static long millis() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        // Fields after the command name, which is in parentheses and may hold spaces; field 3 (state) comes first.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[16 - 3]) + Long.parseLong(f[17 - 3]);
        return ticks * 1000 / TICKS_PER_SECOND;
    }
}
