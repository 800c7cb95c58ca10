package io.mixflame.examples.churn;

import java.util.concurrent.atomic.AtomicBoolean;

/** Starts short-lived threads in small bursts, each doing a few microseconds of work, until told to stop. */
final class ThreadChurn implements Runnable {
    private static final int BURST = 8;

    private final AtomicBoolean stop = new AtomicBoolean();
    private long started;
    /** Keeps the JIT from discarding the threads' work. */
    private volatile long sink;

    @Override
    public void run() {
        Thread[] burst = new Thread[BURST];
        while (!stop.get()) {
            for (int i = 0; i < BURST; i++) {
                burst[i] = new Thread(this::shortWork, "short-lived");
                burst[i].start();
            }
            for (Thread t : burst) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            started += BURST;
        }
    }

    void stop() {
        stop.set(true);
    }

    /** Threads started; read after the churning thread has been joined. */
    long started() {
        return started;
    }

    /** Bursts of this many threads run at once. */
    static int burst() {
        return BURST;
    }

    private void shortWork() {
        long x = Thread.currentThread().getId() | 1;
        for (int i = 0; i < 2_000; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        sink = x;
    }
}
