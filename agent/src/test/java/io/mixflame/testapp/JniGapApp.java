package io.mixflame.testapp;

/**
 * Calls a JNI library without unwind data (the library's path is the first argument) from a Java method of its
 * own: for a second to warm up (its Java code compiled), then, after printing {@code ready}, for the seconds given
 * as the second argument, then prints {@code done}.
 */
public final class JniGapApp {
    static volatile long sink;

    private JniGapApp() {
    }

    static native long churn(long n);

    public static void main(String[] args) throws Exception {
        System.load(args[0]);
        long warm = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < warm) {
            callNative();
        }
        long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
        System.out.println("ready");
        System.out.flush();
        while (System.nanoTime() < deadline) {
            callNative();
        }
        System.out.println("done");
    }

    /** The Java caller that must stay in every stack of the library's code. */
    static void callNative() {
        sink += churn(2_000_000);
    }
}
