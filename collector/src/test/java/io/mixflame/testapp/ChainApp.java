package io.mixflame.testapp;

import java.util.concurrent.locks.LockSupport;

/**
 * Parks a thread, {@code mf-chain}, at the end of a 12-deep chain of Java methods, then prints the stack
 * {@code Thread.getStackTrace()} reports for it (one {@code frame class method line} line each) and {@code ready}.
 * With the argument {@code warm} the chain is first run 30 000 times (parking on a permit it was given, so it
 * returns at once) so that it is JIT-compiled, inlining and all, before the real park.
 */
public final class ChainApp {
    static volatile boolean parkForReal;
    static volatile long sink;

    private ChainApp() {
    }

    /** The parked thread: a subclass, so that no hidden lambda frame sits between run and the chain. */
    static final class ChainThread extends Thread {
        private final boolean warm;

        ChainThread(boolean warm) {
            super("mf-chain");
            this.warm = warm;
            setDaemon(true);
        }

        @Override
        public void run() {
            if (warm) {
                for (int i = 0; i < 30_000; i++) {
                    LockSupport.unpark(this);
                    sink += c1(i);
                }
            }
            parkForReal = true;
            sink += c1(1);
        }
    }

    public static void main(String[] args) throws Exception {
        Thread t = new ChainThread(args.length > 0 && args[0].equals("warm"));
        t.start();
        while (!parkForReal || t.getState() != Thread.State.WAITING) {
            Thread.sleep(10);
        }
        for (StackTraceElement e : t.getStackTrace()) {
            System.out.println("frame " + e.getClassName() + " " + e.getMethodName() + " " + e.getLineNumber());
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(120_000);
    }

    static int c1(int n) {
        return c2(n + 1) + 1;
    }

    static int c2(int n) {
        return c3(n + 1) + 1;
    }

    static int c3(int n) {
        return c4(n + 1) + 1;
    }

    static int c4(int n) {
        return c5(n + 1) + 1;
    }

    static int c5(int n) {
        return c6(n + 1) + 1;
    }

    static int c6(int n) {
        return c7(n + 1) + 1;
    }

    static int c7(int n) {
        return c8(n + 1) + 1;
    }

    static int c8(int n) {
        return c9(n + 1) + 1;
    }

    static int c9(int n) {
        return c10(n + 1) + 1;
    }

    static int c10(int n) {
        return c11(n + 1) + 1;
    }

    static int c11(int n) {
        return c12(n + 1) + 1;
    }

    static int c12(int n) {
        LockSupport.park();
        return n;
    }
}
