package io.mixflame.examples.mixed;

import io.mixflame.examples.cputime.ThreadCpuClock;
import java.util.Objects;

/**
 * Native code between Java frames, in three phases of equal length on one thread named {@code mixed-workload}:
 * zlib through {@code java.util.zip}; libc {@code qsort} through JNA with a Java comparator called back from C;
 * libc {@code memcmp} through JNA in a loop. A profiler that sees native code shows C frames below the Java frames
 * that called them, and in the qsort phase Java frames again below those.
 */
public final class MixedWorkload {
    private MixedWorkload() {
    }

    /** Runs the three phases for {@code seconds} in all and prints what each did. */
    public static void run(int seconds) throws Exception {
        Thread.currentThread().setName("mixed-workload");
        long cpuBefore = ThreadCpuClock.currentThreadCpuNanos();
        long phaseNanos = seconds * 1_000_000_000L / 3;
        // Load libc and JNA before the clock starts: a profiler should see the phases, not JNA's start-up.
        Objects.requireNonNull(LibC.INSTANCE);
        phase("zlib", phaseNanos, deadline -> new ZlibPhase().run(deadline));
        QsortPhase qsort = new QsortPhase();
        phase("qsort", phaseNanos, qsort::run);
        phase("memcmp", phaseNanos, deadline -> new MemcmpPhase().run(deadline));
        long cpuMillis = cpuBefore < 0 ? -1 : (ThreadCpuClock.currentThreadCpuNanos() - cpuBefore) / 1_000_000;
        System.out.println("mixed: " + seconds + " s, " + qsort.callbacks() + " callbacks, " + cpuMillis
                + " ms of CPU time");
    }

    private interface Phase {
        String run(long deadlineNanos) throws Exception;
    }

    private static void phase(String name, long nanos, Phase phase) throws Exception {
        long start = System.nanoTime();
        String did = phase.run(start + nanos);
        System.out.println("mixed: " + name + ": " + did + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
}
