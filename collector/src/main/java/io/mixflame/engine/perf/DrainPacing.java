package io.mixflame.engine.perf;

import io.mixflame.capture.perf.PerfCaptureSettings;

/**
 * How long the sampler waits between drains of the ring buffers. Draining at every tick woke the sampler and then
 * the walker for one sample each, a hundred times a second: each wake-up ran cold code over cold data, and most of
 * the profiler's cost per sample was that, not the walk. Waiting several ticks lets samples gather in the kernel's
 * buffers, so that one wake-up walks a batch with warm caches.
 *
 * <p>The wait stays short enough that nothing is lost: a thread adds at most one sample per tick to its own buffer,
 * so waiting half a buffer's worth of ticks leaves room for a late wake-up; and a drain should fill at most a quarter
 * of the walker's pool, so when many threads are busy the wait shrinks again (halved after a drain that handed over
 * more, or when the kernel reported samples lost; doubled after a quiet one, up to the limit).
 */
final class DrainPacing {
    /** Longest wait, whatever the interval: a profile written on demand should not miss much. */
    static final long MAX_WAIT_NANOS = 100_000_000L;

    private final long intervalNanos;
    private final long longestNanos;
    private final int poolQuarter;
    private long waitNanos;

    /**
     * @param intervalNanos  the sampling interval of each thread
     * @param ringBytes      bytes of data in each thread's ring buffer
     * @param stackBytes     bytes of stack copied with each sample (by default: a thread whose copy grew has a ring
     *                       grown in proportion, {@link PerfCaptureSettings#dataPagesFor})
     * @param pool           sample buffers between the sampler and the walker
     */
    DrainPacing(long intervalNanos, long ringBytes, int stackBytes, int pool) {
        this.intervalNanos = intervalNanos;
        long recordsPerRing = ringBytes / (stackBytes + PerfCaptureSettings.RECORD_OVERHEAD_BYTES);
        long ticks = Math.max(1, recordsPerRing / 2);
        this.longestNanos = Math.max(intervalNanos, Math.min(MAX_WAIT_NANOS, saturatingTimes(intervalNanos, ticks)));
        this.poolQuarter = Math.max(1, pool / 4);
        this.waitNanos = intervalNanos;
    }

    /** The wait before the next drain. */
    long waitNanos() {
        return waitNanos;
    }

    /** The longest wait these settings allow. */
    long longestNanos() {
        return longestNanos;
    }

    /**
     * Adjusts the wait after a drain.
     *
     * @param handedOver samples the drain gave the walker
     * @param lostMore   whether the kernel reported samples lost since the drain before
     */
    void drained(int handedOver, boolean lostMore) {
        if (lostMore || handedOver > poolQuarter) {
            waitNanos = Math.max(intervalNanos, waitNanos / 2);
        } else if (handedOver <= poolQuarter / 2) {
            waitNanos = Math.min(longestNanos, saturatingTimes(waitNanos, 2));
        }
    }

    private static long saturatingTimes(long a, long b) {
        long r = a * b;
        return b != 0 && r / b != a ? Long.MAX_VALUE : r;
    }
}
