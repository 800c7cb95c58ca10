package io.mixflame.examples.labels;

import io.mixflame.api.Labels;

/**
 * {@code labels [--flood]}: labels set through {@code mixflame-api}. Thread {@code label-switcher} works a couple of
 * milliseconds in {@code inPhaseA} with the label {@code phase=a}, then in {@code inPhaseB} with {@code phase=b},
 * then in {@code outsidePhases} with none, over and over: a sample labelled when it was walked rather than when it
 * was taken would often name the other phase. With {@code --flood}, thread {@code label-flood} works under a
 * {@code tenant} label whose value is new every time, far past what the profiler keeps.
 */
public final class LabelSwitchWorkload {
    private static final int ITERATIONS = 800_000;
    private static volatile long sink;

    private LabelSwitchWorkload() {
    }

    /** Runs for {@code seconds}. */
    public static void run(boolean flood, int seconds) throws InterruptedException {
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
                inPhaseA();
            }
            try (Labels.Scope b = Labels.scope("phase", "b")) {
                inPhaseB();
            }
            outsidePhases();
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

    private static void spin(int iterations) {
        long x = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 31;
        }
        sink = x;
    }
}
