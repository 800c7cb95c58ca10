package io.mixflame.examples.labels;

/**
 * The CPU each endpoint's request costs, in units of the same arithmetic: {@code /heavy} three, {@code /light} one,
 * so that with as many requests of each a correct profile gives {@code /heavy} 75% of the requests' samples.
 */
public final class EndpointWork {
    /** Units of a {@code /heavy} request. */
    public static final int HEAVY_UNITS = 3;
    /** Units of a {@code /light} request. */
    public static final int LIGHT_UNITS = 1;
    /** A few milliseconds of work: long enough that the server's own per-request work is a small part. */
    private static final int UNIT_ITERATIONS = 1_500_000;

    private static volatile long sink;

    private EndpointWork() {
    }

    /** What a {@code /heavy} request does. */
    public static long heavy() {
        return spin(HEAVY_UNITS);
    }

    /** What a {@code /light} request does. */
    public static long light() {
        return spin(LIGHT_UNITS);
    }

    /** Work outside any request, on a thread of its own. */
    public static long background() {
        return spin(1);
    }

    private static long spin(int units) {
        long x = System.nanoTime();
        for (int i = 0; i < units * UNIT_ITERATIONS; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        sink = x;
        return x;
    }
}
