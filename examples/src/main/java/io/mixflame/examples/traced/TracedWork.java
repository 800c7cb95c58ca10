package io.mixflame.examples.traced;

/** The CPU each request of the traced service costs: about 4 ms of arithmetic, in methods named after its endpoint. */
final class TracedWork {
    private static final int STEPS = 2_000_000;
    private static volatile long sink;

    private TracedWork() {
    }

    /** The work of {@code /inline}, on the request's thread. */
    static long inline() {
        return burn(0x9E3779B97F4A7C15L);
    }

    /** The work of {@code /pooled}, on the executor's thread. */
    static long pooled() {
        return burn(0xC2B2AE3D27D4EB4FL);
    }

    private static long burn(long seed) {
        long x = seed ^ System.nanoTime();
        for (int i = 0; i < STEPS; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        sink = x;
        return x;
    }
}
