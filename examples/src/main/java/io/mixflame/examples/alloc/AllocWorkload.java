package io.mixflame.examples.alloc;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code alloc}: two threads, {@code alloc-first} in {@link #allocateFirst} and {@code alloc-second} in
 * {@link #allocateSecond}, each allocating {@code int[1024]} and {@code Integer[1024]} at random, as many of each: the same number of
 * bytes of each (4 KB of elements each, with compressed references, the default below 32 GB of heap). So a
 * profile of allocations should give each thread half of the bytes, and each array type half of each thread's.
 * After {@code seconds} the threads stop and it prints {@code alloc: done N arrays}, then idles for two seconds so
 * that JFR's last flush carries the last samples before the JVM exits.
 */
public final class AllocWorkload {
    static final int LENGTH = 1024;
    /** Where arrays are kept a while, so that the JIT cannot find them unused and leave them unallocated. */
    private static final int KEPT = 256;

    private AllocWorkload() {
    }

    public static void run(int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Allocator first = new Allocator(until, true);
        Allocator second = new Allocator(until, false);
        Thread a = new Thread(first, "alloc-first");
        Thread b = new Thread(second, "alloc-second");
        a.start();
        b.start();
        a.join();
        b.join();
        System.out.println("alloc: done " + (first.arrays + second.arrays) + " arrays");
        System.out.flush();
        TimeUnit.SECONDS.sleep(2);
    }

    private static final class Allocator implements Runnable {
        private final long until;
        private final boolean first;
        private final Object[] kept = new Object[KEPT];
        long arrays;

        Allocator(long until, boolean first) {
            this.until = until;
            this.first = first;
        }

        @Override
        public void run() {
            while (System.nanoTime() < until) {
                arrays += first ? allocateFirst(kept) : allocateSecond(kept);
            }
        }
    }

    /**
     * Allocates 1000 arrays, each of either type by a coin's toss: in a fixed order, the same type would always be
     * the one that starts a new TLAB (where the JVM takes its allocation samples) whenever a TLAB holds an even
     * number of arrays.
     */
    static int allocateFirst(Object[] kept) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 1000; i++) {
            kept[i % KEPT] = random.nextBoolean() ? new int[LENGTH] : new Integer[LENGTH];
        }
        return 1000;
    }

    /** The same as {@link #allocateFirst}, under another name. */
    static int allocateSecond(Object[] kept) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 1000; i++) {
            kept[i % KEPT] = random.nextBoolean() ? new int[LENGTH] : new Integer[LENGTH];
        }
        return 1000;
    }
}
