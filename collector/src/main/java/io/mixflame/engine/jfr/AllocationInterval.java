package io.mixflame.engine.jfr;

/**
 * async-profiler's {@code alloc=SIZE} over JFR's allocation samples: about one sample per {@code SIZE} bytes
 * allocated, however many samples JFR takes. A sample that stands for {@code SIZE} bytes or more is kept as it is;
 * one that stands for fewer is kept with the probability {@code bytes / SIZE} and then stands for {@code SIZE}
 * bytes, so that the expected bytes of every sample, and so the totals, stay what JFR measured.
 */
final class AllocationInterval {
    /** Returned by {@link #weigh} for a sample left out. */
    static final long LEFT_OUT = -1;

    private final long interval;

    /** @param interval bytes per sample kept; 0 keeps every sample */
    AllocationInterval(long interval) {
        this.interval = interval;
    }

    /**
     * The bytes a sample of {@code bytes} stands for once thinned, or {@link #LEFT_OUT}.
     *
     * @param random a number drawn uniformly from {@code [0, interval)} (unused when the interval is 0)
     */
    long weigh(long bytes, long random) {
        if (interval <= 0 || bytes >= interval) {
            return bytes;
        }
        return random < bytes ? interval : LEFT_OUT;
    }

    long interval() {
        return interval;
    }
}
