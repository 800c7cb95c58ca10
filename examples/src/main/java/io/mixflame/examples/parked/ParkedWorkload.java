package io.mixflame.examples.parked;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code parked}: threads that stop in known Java call chains — parked, sleeping, waiting on a monitor — and stay
 * there, so that a thread dump taken from outside can be checked against what each thread reports of itself. Prints
 * {@code parked: pid N}, then for each thread {@code parked: thread NAME: Class.method;Class.method;...} (innermost
 * first, from {@link Thread#getStackTrace}), then {@code parked: ready}. Needs nothing beyond {@code java.base}, so it
 * runs on jlinked runtimes too.
 */
public final class ParkedWorkload {
    private static final Object MONITOR = new Object();
    private static final CountDownLatch ARRIVED = new CountDownLatch(3);

    private ParkedWorkload() {
    }

    /** Starts the threads, prints their stacks once all are stopped, and keeps them so for {@code seconds}. */
    public static void run(int seconds) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        threads.add(start("parked-lock", new LockChain()));
        threads.add(start("parked-sleep", new SleepChain()));
        threads.add(start("parked-wait", new WaitChain()));
        System.out.println("parked: pid " + ProcessHandle.current().pid());
        ARRIVED.await();
        for (Thread t : threads) {
            StackTraceElement[] trace = stoppedTrace(t);
            StringJoiner frames = new StringJoiner(";");
            for (StackTraceElement e : trace) {
                frames.add(e.getClassName() + "." + e.getMethodName());
            }
            System.out.println("parked: thread " + t.getName() + ": " + frames);
        }
        System.out.println("parked: ready");
        System.out.flush();
        TimeUnit.SECONDS.sleep(seconds);
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The thread's stack once it is blocked, not while it is still on its way there. */
    private static StackTraceElement[] stoppedTrace(Thread t) throws InterruptedException {
        while (t.getState() == Thread.State.RUNNABLE || t.getState() == Thread.State.NEW) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return t.getStackTrace();
    }

    // Named classes rather than lambdas: a lambda's frame is hidden from Thread.getStackTrace but not from a dump.
    private static final class LockChain implements Runnable {
        @Override
        public void run() {
            lockOuter();
        }
    }

    private static final class SleepChain implements Runnable {
        @Override
        public void run() {
            sleepOuter();
        }
    }

    private static final class WaitChain implements Runnable {
        @Override
        public void run() {
            waitOuter();
        }
    }

    private static void lockOuter() {
        lockMiddle();
    }

    private static void lockMiddle() {
        lockInner();
    }

    private static void lockInner() {
        ARRIVED.countDown();
        while (true) {
            LockSupport.park();
        }
    }

    private static void sleepOuter() {
        sleepInner();
    }

    private static void sleepInner() {
        ARRIVED.countDown();
        while (true) {
            try {
                TimeUnit.HOURS.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void waitOuter() {
        waitMiddle();
    }

    private static void waitMiddle() {
        waitInner();
    }

    private static void waitInner() {
        synchronized (MONITOR) {
            ARRIVED.countDown();
            while (true) {
                try {
                    MONITOR.wait();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
