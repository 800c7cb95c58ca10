package io.mixflame.testapp;

/**
 * A target for attach tests: prints {@code ready}, then burns CPU in {@code spinOuter → spinInner} for the
 * number of seconds given (default 60), printing {@code done} at the end.
 */
public final class SpinApp {
    static volatile long sink;

    private SpinApp() {
    }

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            sink += spinOuter(sink);
        }
        System.out.println("done");
    }

    static long spinOuter(long seed) {
        return spinInner(seed) + 1;
    }

    static long spinInner(long seed) {
        long x = seed | 1;
        for (int i = 0; i < 100_000; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }
}
