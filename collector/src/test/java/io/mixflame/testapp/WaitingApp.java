package io.mixflame.testapp;

/** A JVM with one thread, {@code mf-waiter}, parked in {@code Object.wait()} below two Java frames. */
public final class WaitingApp {
    private static final Object LOCK = new Object();

    private WaitingApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread waiter = new Thread(WaitingApp::outer, "mf-waiter");
        waiter.setDaemon(true);
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.sleep(10);
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.parseLong(args.length > 0 ? args[0] : "60") * 1000);
    }

    static void outer() {
        inner();
    }

    static void inner() {
        synchronized (LOCK) {
            try {
                LOCK.wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
