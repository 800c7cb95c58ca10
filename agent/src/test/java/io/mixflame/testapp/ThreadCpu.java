package io.mixflame.testapp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's CPU time as the kernel counts it ({@code /proc/thread-self/schedstat}, nanoseconds on the
 * scheduler's clock, the clock a thread's CPU timer runs on): what the test programs report as the truth a profile's
 * shares are judged by, rather than another profiler's figures.
 */
final class ThreadCpu {
    private static final Path SCHEDSTAT = Path.of("/proc/thread-self/schedstat");

    private ThreadCpu() {
    }

    /**
     * The calling thread's time on a CPU and waiting on a run queue for one, so far (the first two fields of its
     * schedstat, nanoseconds), or -1s when the kernel does not say: what is left of its life it spent blocked.
     */
    static long[] runningAndWaiting() {
        try {
            String[] fields = Files.readString(SCHEDSTAT).trim().split(" ");
            return new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    /** The calling thread's CPU time so far, or -1 when the kernel does not say. */
    static long nanos() {
        return runningAndWaiting()[0];
    }
}
