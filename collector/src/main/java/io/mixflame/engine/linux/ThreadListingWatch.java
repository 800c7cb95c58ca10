package io.mixflame.engine.linux;

/**
 * Whether a process's threads should be listed again: their count (one stat call) differs from the last listing's,
 * or the last listing is {@value #FULL_LISTING_NANOS} ns old (a thread that ended while another started leaves the
 * count as it was). Listing {@code /proc/PID/task} at every poll was a third of the perf sampler's time, and listing
 * 500 threads every 100 ms would cost the wall engine more than sampling them.
 */
public final class ThreadListingWatch {
    public static final long FULL_LISTING_NANOS = 1_000_000_000L;

    private int listedCount = -1;
    private long lastListing;

    /** @param startNanos when the threads were first known, as {@link System#nanoTime()} */
    public ThreadListingWatch(long startNanos) {
        this.lastListing = startNanos;
    }

    /** Whether the last listing is too old to trust, at {@code now}, whatever the count. */
    public boolean stale(long now) {
        return now - lastListing >= FULL_LISTING_NANOS;
    }

    /** Whether {@code count} (-1 when it could not be read) differs from the last listing's. */
    public boolean changed(int count) {
        return count < 0 || count != listedCount;
    }

    /** The threads were listed at {@code now}, {@code count} of them. */
    public void listed(long now, int count) {
        listedCount = count;
        lastListing = now;
    }
}
