package io.mixflame.examples.saturate;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code saturate}: as many busy threads as cores, each doing rounds of the same mixed work
 * ({@link SaturationRound}). With every core busy, a profiler's threads take their CPU from the workload's, so its
 * cost shows as a longer run of fixed work ({@code --rounds}) rather than as idle cores filled.
 */
public final class SaturateWorkload {
    /** Thread names start with this; the harness groups profiled threads by it. */
    public static final String THREAD_PREFIX = "saturate-";

    /** Keeps the JIT from discarding the work. */
    static volatile long sink;

    private SaturateWorkload() {
    }

    /**
     * Runs {@code threads} busy threads: {@code rounds} rounds split among them when positive, or for
     * {@code seconds} otherwise; prints how long the work took and the process's CPU time meanwhile.
     */
    public static void run(int threads, long rounds, int seconds) throws InterruptedException {
        // Load zlib and JNA before the clock starts: the work, not JNA's start-up, is what is measured.
        new SaturationRound(0).run();
        AtomicLong done = new AtomicLong();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            // The remainder goes to the first threads, one round each, so that the rounds add up exactly.
            long share = rounds / threads + (i < rounds % threads ? 1 : 0);
            SaturationRound round = new SaturationRound(i + 1);
            busy.add(new Thread(() -> done.addAndGet(rounds > 0 ? runRounds(round, share) : runUntil(round, deadline)),
                    THREAD_PREFIX + i));
        }
        long cpuBefore = processCpuNanos();
        long start = System.nanoTime();
        busy.forEach(Thread::start);
        for (Thread t : busy) {
            t.join();
        }
        long workMillis = (System.nanoTime() - start) / 1_000_000;
        long cpuMillis = (processCpuNanos() - cpuBefore) / 1_000_000;
        String took = rounds > 0 ? workMillis + " ms" : seconds + " s";
        System.out.println("saturate: " + done.get() + " rounds in " + took + " on " + threads + " threads, process CPU "
                + cpuMillis + " ms");
    }

    private static long runRounds(SaturationRound round, long rounds) {
        for (long r = 0; r < rounds; r++) {
            round.run();
        }
        sink += round.result();
        return rounds;
    }

    private static long runUntil(SaturationRound round, long deadlineNanos) {
        long rounds = 0;
        while (System.nanoTime() < deadlineNanos) {
            round.run();
            rounds++;
        }
        sink += round.result();
        return rounds;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        throw new IllegalStateException("this JVM does not report its process CPU time");
    }
}
