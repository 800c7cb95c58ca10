package io.mixflame.engine.suspend;

/**
 * When the sampler lists the target's threads again: every {@value #MIN_PERIOD_NANOS} ns where listing is cheap, less
 * often where it is not, so that listing takes at most a {@value #SHARE}th of the sampler's time. Under Wine a
 * Toolhelp snapshot (every thread of the system, through wineserver) took 75 ms: listed every 100 ms, it left the
 * sampler a quarter of its time. And its time there is mostly work, not waiting: for each thread of every process Wine
 * reads the thread's {@code /proc} stat file and maps and unmaps the snapshot once more, so that listings at a
 * twentieth of the time were the largest part of the helper's CPU in steady state (some 400 system calls a second
 * for a system of 70 threads). A thread started meanwhile is found at most {@value #MAX_PERIOD_NANOS} ns late.
 */
final class ListingPace {
    static final long MIN_PERIOD_NANOS = 250_000_000L;
    static final long MAX_PERIOD_NANOS = 2_000_000_000L;
    static final int SHARE = 100;

    private boolean listed;
    private long last;
    private long period = MIN_PERIOD_NANOS;

    /** Whether a listing is due at {@code now}; the first always is. */
    boolean due(long now) {
        return !listed || now - last >= period;
    }

    /** Records a listing that ran from {@code startNanos} to {@code endNanos}. */
    void listed(long startNanos, long endNanos) {
        listed = true;
        last = endNanos;
        long took = Math.max(0, endNanos - startNanos);
        period = Math.max(MIN_PERIOD_NANOS, Math.min(MAX_PERIOD_NANOS, SHARE * took));
    }

    /** The time between listings now. */
    long periodNanos() {
        return period;
    }
}
