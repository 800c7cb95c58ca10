package io.mixflame.testapp;

/** Starts a thread with a long, non-ASCII name, parks it, and prints {@code ready}. */
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
        while (t.getState() != Thread.State.WAITING) {
            Thread.sleep(10);
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
