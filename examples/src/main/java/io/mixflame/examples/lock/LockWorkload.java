package io.mixflame.examples.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code lock}: four threads {@code lock-monitor-N} contend for one monitor in {@link #enterMonitor}, four threads
 * {@code lock-reentrant-N} for one {@link ReentrantLock} in {@link #takeReentrantLock}; each holds it for 5 ms at a
 * time (allocating 64 KB of {@code long[]} in {@code hold}, then sleeping). Each thread measures how long it
 * waited to get in; after {@code seconds} the threads stop and it
 * prints {@code lock: monitor waited N ns} and {@code lock: reentrant waited N ns}, the sums over the threads, then
 * idles for two seconds so that JFR's last flush carries the last events before the JVM exits.
 */
public final class LockWorkload {
    static final int THREADS = 4;
    static final long HOLD_MILLIS = 5;
    private static final Object MONITOR = new Object();
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final AtomicLong MONITOR_WAITED = new AtomicLong();
    private static final AtomicLong REENTRANT_WAITED = new AtomicLong();
    /** Where the holders of both locks keep what they allocate; which array a slot holds does not matter. */
    private static final Object[] KEPT = new Object[8];

    private LockWorkload() {
    }

    public static void run(int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            threads.add(new Thread(new LockUser(until, true), "lock-monitor-" + i));
            threads.add(new Thread(new LockUser(until, false), "lock-reentrant-" + i));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("lock: monitor waited " + MONITOR_WAITED.get() + " ns");
        System.out.println("lock: reentrant waited " + REENTRANT_WAITED.get() + " ns");
        System.out.flush();
        TimeUnit.SECONDS.sleep(2);
    }

    // A named class rather than a lambda, so that stacks name it.
    private static final class LockUser implements Runnable {
        private final long until;
        private final boolean monitor;

        LockUser(long until, boolean monitor) {
            this.until = until;
            this.monitor = monitor;
        }

        @Override
        public void run() {
            while (System.nanoTime() < until) {
                if (monitor) {
                    enterMonitor();
                } else {
                    takeReentrantLock();
                }
            }
        }
    }

    static void enterMonitor() {
        long start = System.nanoTime();
        synchronized (MONITOR) {
            MONITOR_WAITED.addAndGet(System.nanoTime() - start);
            hold();
        }
    }

    static void takeReentrantLock() {
        long start = System.nanoTime();
        LOCK.lock();
        try {
            REENTRANT_WAITED.addAndGet(System.nanoTime() - start);
            hold();
        } finally {
            LOCK.unlock();
        }
    }

    /** Allocates a little (for profiles of allocations and locks at once), then sleeps while the lock is held. */
    private static void hold() {
        for (int i = 0; i < KEPT.length; i++) {
            KEPT[i] = new long[1024];
        }
        try {
            Thread.sleep(HOLD_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
