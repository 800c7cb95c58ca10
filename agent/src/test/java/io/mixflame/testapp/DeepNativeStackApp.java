package io.mixflame.testapp;

/**
 * Calls a JNI library whose native stack is deeper than perf's default stack copy (the library's path is the first
 * argument) from a Java method of its own, for the seconds given as the second argument.
 */
public final class DeepNativeStackApp {
    static volatile long sink;
    private static int seed = 1;

    private DeepNativeStackApp() {
    }

    static native long descend(int seed);

    public static void main(String[] args) {
        System.load(args[0]);
        long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            callNative();
        }
    }

    /** The Java caller that every stack of the library's code must reach. */
    static void callNative() {
        sink += descend(seed++);
    }
}
