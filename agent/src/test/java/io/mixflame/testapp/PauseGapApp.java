package io.mixflame.testapp;

import java.util.Arrays;

/**
 * What a profiler's stops cost a running thread, as the thread itself sees them: {@code threads} threads (1) read the
 * clock in a loop for the seconds given, and each time between two reads longer than 10 µs is a pause (a stop by a
 * profiler, an interrupt, a preemption). Prints {@code started}, then the pauses: how many, their p50/p90/p99 and
 * the time they took per second. Run without a profiler for the machine's own pauses.
 *
 * <p>Arguments: seconds, and optionally threads.
 */
public final class PauseGapApp {
    private static final long PAUSE_NANOS = 10_000;
    private static final int MOST_PAUSES = 1 << 20;

    private PauseGapApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = Long.parseLong(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        long[][] pauses = new long[threads][];
        int[] counts = new int[threads];
        Thread[] running = new Thread[threads];
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        for (int t = 0; t < threads; t++) {
            int index = t;
            running[t] = new Thread(() -> {
                long[] mine = new long[MOST_PAUSES];
                int n = 0;
                long last = System.nanoTime();
                while (last < end) {
                    long now = System.nanoTime();
                    if (now - last > PAUSE_NANOS && n < mine.length) {
                        mine[n++] = now - last;
                    }
                    last = now;
                }
                pauses[index] = mine;
                counts[index] = n;
            }, "pause-gap-" + t);
            running[t].start();
        }
        System.out.println("started");
        System.out.flush();
        int total = 0;
        for (int t = 0; t < threads; t++) {
            running[t].join();
            total += counts[t];
        }
        long[] all = new long[total];
        int at = 0;
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            System.arraycopy(pauses[t], 0, all, at, counts[t]);
            at += counts[t];
        }
        for (long p : all) {
            sum += p;
        }
        Arrays.sort(all);
        System.out.printf("pauses over 10 us: %d in %d s on %d threads; p50 %d us, p90 %d us, p99 %d us; "
                        + "%.2f ms per second per thread%n", total, seconds, threads, at(all, 0.50), at(all, 0.90),
                at(all, 0.99), sum / 1e6 / seconds / threads);
    }

    private static long at(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, quantile * sorted.length)] / 1000;
    }
}
