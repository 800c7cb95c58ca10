package io.mixflame.testapp;

/**
 * Starts a thread with a long, non-ASCII name, and as many more as the argument says (none without one), named
 * {@code pooled-N}, parks them, and prints {@code ready}.
 */
public final class NamedThreadApp {
    public static final String NAME = "mixflame-worker with a name longer than fifteen bytes, wörker-中";

    private NamedThreadApp() {
    }

    public static void main(String[] args) throws Exception {
        Object lock = new Object();
        Thread t = new Thread(() -> {
            synchronized (lock) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, NAME);
        t.setDaemon(true);
        t.start();
        int more = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Thread[] pooled = new Thread[more];
        for (int i = 0; i < more; i++) {
            pooled[i] = new Thread(() -> {
                synchronized (lock) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }, "pooled-" + i);
            pooled[i].setDaemon(true);
            pooled[i].start();
        }
        while (t.getState() != Thread.State.WAITING) {
            Thread.sleep(10);
        }
        for (Thread p : pooled) {
            while (p.getState() != Thread.State.WAITING) {
                Thread.sleep(10);
            }
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
