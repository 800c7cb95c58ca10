package io.mixflame.testapp;

import io.mixflame.api.Mixflame;

/**
 * Profiles itself through the Java API: starts profiling into {@code args[0]}, works a second and a half, writes
 * what it has so far to {@code args[1]} and stops; each result, or why it was refused, on a line of its own.
 */
public final class ControlApp {
    static volatile long sink;

    private ControlApp() {
    }

    public static void main(String[] args) {
        try {
            System.out.println("status: " + Mixflame.status());
        } catch (IllegalStateException e) {
            System.out.println("refused: " + e.getMessage());
            return;
        }
        System.out.println("start: " + Mixflame.start("event=cpu,interval=5ms,file=" + args[0]));
        long end = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < end) {
            sink += burn(sink);
        }
        System.out.println("dump: " + Mixflame.dump(args[1]));
        System.out.println("stop: " + Mixflame.stop());
        try {
            Mixflame.stop();
        } catch (IllegalStateException e) {
            System.out.println("second stop: " + e.getMessage());
        }
        try {
            Mixflame.execute("start,bogus");
        } catch (IllegalArgumentException e) {
            System.out.println("bad: " + e.getMessage());
        }
    }

    static long burn(long seed) {
        long x = seed;
        for (int i = 0; i < 10_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
