package io.mixflame.engine.perf;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads whose first sample the sampler has just seen, handed to the thread that takes their names while they live:
 * the sampler marks each id in a set of those seen (open addressing, no boxing) and queues the new ones in a bounded
 * ring of ints read by one other thread. Both are bounded: a full set is emptied (its threads may be queued once
 * more, and {@code ThreadNames} skips those already named), a full ring drops the id and counts it, so that the
 * names thread reads the JVM's whole list sooner.
 */
final class NewThreads {
    private static final int SET_SLOTS = 1 << 14;
    private final int[] seen = new int[SET_SLOTS];
    private int seenCount;
    private final int[] queue;
    private final int mask;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();
    private volatile long overflowed;

    /** A queue of {@code capacity} ids (a power of two). */
    NewThreads(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        queue = new int[capacity];
        mask = capacity - 1;
    }

    /**
     * Queues {@code tid} if it was not seen before; from the sampler only.
     *
     * @return whether it was queued
     */
    boolean offerIfNew(int tid) {
        if (tid <= 0 || !mark(tid)) {
            return false;
        }
        long t = tail.get();
        if (t - head.get() == queue.length) {
            overflowed++;
            return false;
        }
        queue[(int) t & mask] = tid;
        tail.lazySet(t + 1);
        return true;
    }

    /** The next queued id, or 0; from the names thread only. */
    int poll() {
        long h = head.get();
        if (h == tail.get()) {
            return 0;
        }
        int tid = queue[(int) h & mask];
        head.lazySet(h + 1);
        return tid;
    }

    /** Ids dropped as the queue was full. */
    long overflowed() {
        return overflowed;
    }

    private boolean mark(int tid) {
        if (seenCount >= SET_SLOTS * 3 / 4) {
            Arrays.fill(seen, 0);
            seenCount = 0;
        }
        int i = (tid * 0x9E3779B9) >>> 18;
        while (true) {
            int at = seen[i];
            if (at == tid) {
                return false;
            }
            if (at == 0) {
                seen[i] = tid;
                seenCount++;
                return true;
            }
            i = (i + 1) & (SET_SLOTS - 1);
        }
    }
}
