package io.mixflame.examples.labels;

import io.mixflame.api.Labels;

/**
 * {@code labels [--flood] [--longer N]}: labels set through {@code mixflame-api}. Thread {@code label-switcher} works a couple of
 * milliseconds in {@code inPhaseA} with the label {@code phase=a}, then in {@code inPhaseB} with {@code phase=b},
 * then in {@code outsidePhases} with none, over and over: a sample labelled when it was walked rather than when it
 * was taken would often name the other phase. With {@code --flood}, thread {@code label-flood} works under a
 * {@code tenant} label whose value is new every time, far past what the profiler keeps. Each phase allocates small
 * arrays as it works, so that allocation profiles have samples in every phase.
 */
public final class LabelSwitchWorkload {
    private static final int ITERATIONS = 800_000;
    private static volatile long sink;
    private static volatile long[] allocated;

    private LabelSwitchWorkload() {
    }

    /** Runs for {@code seconds}. */
    public static void run(boolean flood, int seconds) throws InterruptedException {
        run(flood, 1, seconds);
    }

    /** Runs for {@code seconds}, each phase {@code longer} times as long as by default (about 2 ms). */
    public static void run(boolean flood, int longer, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        Thread flooding = null;
        if (flood) {
            flooding = new Thread(() -> flood(deadline), "label-flood");
            flooding.start();
        }
        long switches = 0;
        Thread.currentThread().setName("label-switcher");
        while (System.nanoTime() < deadline) {
            try (Labels.Scope a = Labels.scope("phase", "a")) {
                for (int i = 0; i < longer; i++) {
                    inPhaseA();
                }
            }
            try (Labels.Scope b = Labels.scope("phase", "b")) {
                for (int i = 0; i < longer; i++) {
                    inPhaseB();
                }
            }
            for (int i = 0; i < longer; i++) {
                outsidePhases();
            }
            switches += 2;
        }
        if (flooding != null) {
            flooding.join();
        }
        System.out.println("labels: " + switches + " switches, recording " + Labels.recording());
    }

    private static void flood(long deadline) {
        long n = 0;
        while (System.nanoTime() < deadline) {
            Labels.run("tenant", "tenant-" + n++, LabelSwitchWorkload::inFloodedTenant);
        }
        System.out.println("labels: " + n + " distinct tenants");
    }

    static void inPhaseA() {
        spin(ITERATIONS);
    }

    static void inPhaseB() {
        spin(ITERATIONS);
    }

    static void outsidePhases() {
        spin(ITERATIONS / 2);
    }

    static void inFloodedTenant() {
        spin(ITERATIONS / 50);
    }

    /** Arithmetic, and a small array every thousand steps: allocation samples fall in each phase too. */
    private static void spin(int iterations) {
        long x = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 31;
            if (i % 1000 == 0) {
                long[] kept = new long[32];
                kept[(int) (x & 31)] = x;
                allocated = kept;
            }
        }
        sink = x;
    }
}
