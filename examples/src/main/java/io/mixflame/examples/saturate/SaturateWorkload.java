package io.mixflame.examples.saturate;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code saturate}: as many busy threads as cores, each doing rounds of the same mixed work
 * ({@link SaturationRound}). With every core busy, a profiler's threads take their CPU from the workload's, so its
 * cost shows as a longer run of fixed work ({@code --rounds}) rather than as idle cores filled.
 */
public final class SaturateWorkload {
    /** Thread names start with this; the harness groups profiled threads by it. */
    public static final String THREAD_PREFIX = "saturate-";

    /** Longs between two threads' progress slots: a cache line of their own each, so counting costs no sharing. */
    private static final int SLOT_STRIDE = 16;

    /** Keeps the JIT from discarding the work. */
    static volatile long sink;

    private SaturateWorkload() {
    }

    /**
     * Runs {@code threads} busy threads: {@code rounds} rounds split among them when positive, or for
     * {@code seconds} otherwise; prints how long the work took and the process's CPU time meanwhile. With a positive
     * {@code windowSeconds} (and no rounds) it also prints the rounds done in each window of that length as it ends:
     * a steady state's throughput, window by window.
     */
    public static void run(int threads, long rounds, int seconds, int windowSeconds) throws InterruptedException {
        // Load zlib and JNA before the clock starts: the work, not JNA's start-up, is what is measured.
        new SaturationRound(0).run();
        // One slot per thread, written only by its thread after each round.
        AtomicLongArray progress = new AtomicLongArray(threads * SLOT_STRIDE);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            // The remainder goes to the first threads, one round each, so that the rounds add up exactly.
            long share = rounds / threads + (i < rounds % threads ? 1 : 0);
            SaturationRound round = new SaturationRound(i + 1);
            int slot = i * SLOT_STRIDE;
            busy.add(new Thread(() -> work(round, rounds > 0 ? share : Long.MAX_VALUE, deadline, progress, slot),
                    THREAD_PREFIX + i));
        }
        long cpuBefore = processCpuNanos();
        long start = System.nanoTime();
        busy.forEach(Thread::start);
        if (rounds <= 0 && windowSeconds > 0) {
            printWindows(progress, threads, start, seconds / windowSeconds, windowSeconds);
        }
        for (Thread t : busy) {
            t.join();
        }
        long workMillis = (System.nanoTime() - start) / 1_000_000;
        long cpuMillis = (processCpuNanos() - cpuBefore) / 1_000_000;
        String took = rounds > 0 ? workMillis + " ms" : seconds + " s";
        System.out.println("saturate: " + total(progress, threads) + " rounds in " + took + " on " + threads
                + " threads, process CPU " + cpuMillis + " ms");
    }

    private static void work(SaturationRound round, long rounds, long deadlineNanos, AtomicLongArray progress,
                             int slot) {
        long done = 0;
        while (done < rounds && (rounds != Long.MAX_VALUE || System.nanoTime() < deadlineNanos)) {
            round.run();
            progress.lazySet(slot, ++done);
        }
        sink += round.result();
    }

    /**
     * Sleeps to the end of each window and prints the rounds done in it. The busy threads' deadline was set a little
     * before {@code start}, so the last window holds the last rounds.
     */
    private static void printWindows(AtomicLongArray progress, int threads, long start, int windows,
                                     int windowSeconds) throws InterruptedException {
        long windowNanos = windowSeconds * 1_000_000_000L;
        long before = 0;
        for (int w = 1; w <= windows; w++) {
            long end = start + w * windowNanos;
            for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
                Thread.sleep(Math.max(1, (end - now) / 1_000_000));
            }
            long sum = total(progress, threads);
            System.out.println("saturate: window " + w + ": " + (sum - before) + " rounds in " + windowSeconds + " s");
            before = sum;
        }
    }

    private static long total(AtomicLongArray progress, int threads) {
        long sum = 0;
        for (int i = 0; i < threads; i++) {
            sum += progress.get(i * SLOT_STRIDE);
        }
        return sum;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        throw new IllegalStateException("this JVM does not report its process CPU time");
    }
}
