package io.mixflame.capture.perf;

import java.util.function.IntPredicate;

/**
 * The stack copy each thread's walks have asked for, beyond the default: a walk that broke after reading the stack
 * above the end of its sample's copy asks here for the next size up (twice the copy, up to a cap), and the sampler,
 * which owns the {@link PerfCapture}, takes the requests at its next poll and reopens those threads' events. The
 * walker and the sampler are different threads, so every method locks; the walker calls only for broken walks and the
 * sampler takes requests only when {@link #hasPending()} says there are some, so the lock is rarely met.
 *
 * <p>Bounded: at most {@code capacity} threads have a grown size (a request for one more is refused), and entries of
 * ended threads are dropped by {@link #retain}. A thread's entry stays after its request is applied, so that the
 * walks of samples taken before the new size reached the kernel do not ask again. Plain arrays, no boxing: a request
 * allocates nothing.
 */
public final class StackCopyGrowth {
    /**
     * Threads an engine lets grow at once. A grown thread's ring buffer is up to four times the default (512 KiB of
     * locked memory for a 64 KiB copy), so this bounds that cost too.
     */
    public static final int DEFAULT_THREADS = 64;
    private final int cap;
    private final int[] tids;
    private final int[] sizes;
    private final boolean[] pending;
    private int used;
    /** Requests not taken yet; read without the lock by the sampler at every poll. */
    private volatile int pendingCount;

    /**
     * @param cap      the largest copy ever asked for (at most {@link PerfCaptureSettings#MAX_STACK_BYTES})
     * @param capacity threads that may have a grown copy at once
     */
    public StackCopyGrowth(int cap, int capacity) {
        if (cap % 8 != 0 || cap <= 0 || cap > PerfCaptureSettings.MAX_STACK_BYTES) {
            throw new IllegalArgumentException("the cap must be a multiple of 8 up to "
                    + PerfCaptureSettings.MAX_STACK_BYTES);
        }
        this.cap = cap;
        this.tids = new int[capacity];
        this.sizes = new int[capacity];
        this.pending = new boolean[capacity];
    }

    /**
     * The size after {@code copied} bytes: the next power of two above it, as perf's copies are 16, 32 and 64 KiB,
     * at most the cap.
     */
    public int nextSize(int copied) {
        long next = Long.highestOneBit(Math.max(8, copied)) * 2L;
        return (int) Math.min(cap, next);
    }

    /**
     * Asks for a larger copy for thread {@code tid}, whose walk broke above a copy of {@code copied} bytes.
     *
     * @return whether a new request was made (false when the thread already has that size or more asked for, the
     *         cap is reached, or the table is full)
     */
    public synchronized boolean request(int tid, int copied) {
        int want = nextSize(copied);
        if (want <= copied) {
            return false;
        }
        int i = indexOf(tid);
        if (i >= 0) {
            if (sizes[i] >= want) {
                return false;
            }
        } else {
            if (used == tids.length) {
                return false;
            }
            i = used++;
            tids[i] = tid;
        }
        sizes[i] = want;
        if (!pending[i]) {
            pending[i] = true;
            pendingCount++;
        }
        return true;
    }

    /** Whether requests wait to be applied; no lock, for the sampler's every poll. */
    public boolean hasPending() {
        return pendingCount > 0;
    }

    /** Receives each request taken. */
    public interface Applier {
        /** Gives thread {@code tid} a copy of {@code stackBytes}. */
        void apply(int tid, int stackBytes);
    }

    /** Hands every waiting request to {@code applier} once, on the sampler thread. */
    public synchronized void takePending(Applier applier) {
        for (int i = 0; i < used && pendingCount > 0; i++) {
            if (pending[i]) {
                pending[i] = false;
                pendingCount--;
                applier.apply(tids[i], sizes[i]);
            }
        }
    }

    /** The size asked for thread {@code tid}, or 0 when none was. */
    public synchronized int requested(int tid) {
        int i = indexOf(tid);
        return i < 0 ? 0 : sizes[i];
    }

    /**
     * Drops the entries of threads for which {@code alive} is false (ended threads, whose ids the system may give to
     * new threads that need no larger copy).
     */
    public synchronized void retain(IntPredicate alive) {
        int i = 0;
        while (i < used) {
            if (alive.test(tids[i])) {
                i++;
                continue;
            }
            if (pending[i]) {
                pendingCount--;
            }
            used--;
            tids[i] = tids[used];
            sizes[i] = sizes[used];
            pending[i] = pending[used];
        }
    }

    private int indexOf(int tid) {
        for (int i = 0; i < used; i++) {
            if (tids[i] == tid) {
                return i;
            }
        }
        return -1;
    }
}
