package io.mixflame.engine;

/**
 * Turns readings of the monotonic clock ({@link System#nanoTime()}, which is {@code CLOCK_MONOTONIC} on Linux, the
 * clock perf samples are stamped with when asked) into nanoseconds since the epoch, for sample times: the offset is
 * measured once, so samples of one recording keep their order and spacing even if the wall clock is stepped.
 */
public final class EpochClock {
    private final long offsetNanos;

    /** A clock whose offset is measured now. */
    public EpochClock() {
        long before = System.nanoTime();
        long epochNanos = System.currentTimeMillis() * 1_000_000L;
        long after = System.nanoTime();
        offsetNanos = epochNanos - (before + (after - before) / 2);
    }

    /** The epoch time of a monotonic reading. */
    public long epochNanos(long monotonicNanos) {
        return monotonicNanos + offsetNanos;
    }

    /** The epoch time now, on the monotonic clock. */
    public long now() {
        return epochNanos(System.nanoTime());
    }
}
