package io.mixflame.testapp;

import java.util.concurrent.locks.LockSupport;

/**
 * Three application threads parked in known call chains — {@code mf-wait} in Object.wait, {@code mf-park} in
 * LockSupport.park, {@code mf-sleep} in Thread.sleep — for comparing {@code stacks} with jstack. Prints
 * {@code ready} once all three wait.
 */
public final class ParkedChainsApp {
    private static final Object LOCK = new Object();

    private ParkedChainsApp() {
    }

    public static void main(String[] args) throws Exception {
        Thread[] threads = {
            new Thread(ParkedChainsApp::waitOuter, "mf-wait"),
            new Thread(ParkedChainsApp::parkOuter, "mf-park"),
            new Thread(ParkedChainsApp::sleepOuter, "mf-sleep")};
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        for (Thread t : threads) {
            while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
                Thread.sleep(10);
            }
        }
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(120_000);
    }

    static void waitOuter() {
        waitInner();
    }

    static void waitInner() {
        synchronized (LOCK) {
            try {
                LOCK.wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void parkOuter() {
        parkMiddle();
    }

    static void parkMiddle() {
        parkInner();
    }

    static void parkInner() {
        LockSupport.park();
    }

    static void sleepOuter() {
        try {
            Thread.sleep(600_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
