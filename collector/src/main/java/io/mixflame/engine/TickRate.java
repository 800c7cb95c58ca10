package io.mixflame.engine;

/**
 * How many of the ticks an engine was asked for it kept: a sampler that falls behind its interval skips ticks
 * rather than catching up in a burst, so a profile with few samples is either a quiet target or a profiler too slow
 * for its interval on this system, and only this figure tells which.
 */
public final class TickRate {
    private TickRate() {
    }

    /**
     * The ticks kept against those asked for, as the cost notes spell it: {@code "488 of 1500 ticks asked for (33%)"}.
     *
     * @param ticks          the ticks the sampler took
     * @param elapsedNanos   how long it sampled
     * @param intervalNanos  its interval
     */
    public static String describe(long ticks, long elapsedNanos, long intervalNanos) {
        long asked = asked(elapsedNanos, intervalNanos);
        if (asked == 0) {
            return ticks + " ticks";
        }
        return ticks + " of " + asked + " ticks asked for (" + Math.round(100.0 * ticks / asked) + "%)";
    }

    /** The ticks an interval asks for over a time, the first at its start; 0 for a time or interval not positive. */
    public static long asked(long elapsedNanos, long intervalNanos) {
        if (elapsedNanos <= 0 || intervalNanos <= 0) {
            return 0;
        }
        return elapsedNanos / intervalNanos + 1;
    }
}
