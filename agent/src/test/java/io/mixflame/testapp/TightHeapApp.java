package io.mixflame.testapp;

import java.util.SplittableRandom;

/**
 * A service close to its heap limit: keeps about {@code liveMegabytes} (default 26) of arrays alive and replaces them
 * at random for the seconds given (default 8), with short-lived garbage beside, and prints {@code done} at the end.
 * With {@code -Xmx64m} it runs to the end without a profiler; a profiler that takes much of that heap for itself
 * makes it fail with an OutOfMemoryError.
 */
public final class TightHeapApp {
    static volatile long sink;

    private TightHeapApp() {
    }

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 8;
        int liveMegabytes = args.length > 1 ? Integer.parseInt(args[1]) : 26;
        byte[][] live = new byte[liveMegabytes * 1024][];
        for (int i = 0; i < live.length; i++) {
            live[i] = new byte[1024];
        }
        SplittableRandom random = new SplittableRandom(7);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long rounds = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 1000; i++) {
                live[random.nextInt(live.length)] = new byte[1024];
                byte[] garbage = new byte[256 + random.nextInt(4096)];
                sink += garbage.length;
            }
            rounds++;
        }
        System.out.println("done " + rounds);
    }
}
