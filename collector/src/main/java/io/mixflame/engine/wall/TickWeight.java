package io.mixflame.engine.wall;

/**
 * How many intervals a wall-clock tick stands for. The sampler is a thread like any other: on a saturated machine
 * its ticks come late, and if every tick counted one interval, the busy stretches of a run would weigh less than
 * the quiet ones and shares would no longer read as time. A late tick counts the intervals that passed since the
 * one before; the remainder carries to the next, so that over a run the ticks add up to the time sampled.
 */
final class TickWeight {
    /** A tick after a long stall (a stopped JVM, a suspended machine) counts at most this many intervals. */
    static final int MAX_INTERVALS = 50;

    private final long intervalNanos;
    private long lastTick;
    private long carry;

    /** @param startNanos when sampling began, as {@link System#nanoTime()} */
    TickWeight(long intervalNanos, long startNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
        this.lastTick = startNanos;
    }

    /** The intervals the tick at {@code now} stands for, at least one. */
    int next(long now) {
        long elapsed = Math.max(0, now - lastTick) + carry;
        lastTick = now;
        long intervals = elapsed / intervalNanos;
        if (intervals < 1) {
            // An early tick still takes its sample; it borrows from the next one's time, at most one interval.
            carry = Math.max(elapsed - intervalNanos, -intervalNanos);
            return 1;
        }
        if (intervals > MAX_INTERVALS) {
            carry = 0;
            return MAX_INTERVALS;
        }
        carry = elapsed - intervals * intervalNanos;
        return (int) intervals;
    }
}
