package io.mixflame.engine.perf;

/**
 * Samples taken but not walked, kept as counts for the walker to add to the profile without their stacks, so that
 * the shares of the stacks walked stay true: those dropped by the sampler (the walker too far behind), by thread, and
 * those the kernel lost (its buffer full), by no thread. The sampler adds, the walker takes; both lock, and both only
 * when there is something to count or take ({@link #pending()} is read without the lock).
 *
 * <p>Bounded: {@value #SLOTS} threads at once; the dropped samples of any further thread are counted under thread 0
 * until the walker has taken the table.
 */
final class UnwalkedSamples {
    private static final int SLOTS = 1024;
    private final int[] tids = new int[SLOTS];
    private final long[] counts = new long[SLOTS];
    private int used;
    private long lost;
    private volatile boolean pending;

    /** Receives each count taken. */
    interface Visitor {
        /** {@code count} samples of thread {@code tid} (0: unknown) dropped, or lost when {@code lost}. */
        void unwalked(int tid, long count, boolean lost);
    }

    /** Counts a sample of {@code tid} dropped; the sampler's. */
    synchronized void dropped(int tid) {
        int i = 0;
        while (i < used && tids[i] != tid) {
            i++;
        }
        if (i == used) {
            if (used == SLOTS) {
                i = indexOfNoThread();
            } else {
                tids[used] = tid;
                counts[used++] = 0;
            }
        }
        counts[i]++;
        pending = true;
    }

    private int indexOfNoThread() {
        for (int i = 0; i < used; i++) {
            if (tids[i] == 0) {
                return i;
            }
        }
        tids[used - 1] = 0; // the last thread's count joins those of no thread
        return used - 1;
    }

    /** Counts {@code count} samples the kernel lost; the sampler's. */
    synchronized void lost(long count) {
        if (count > 0) {
            lost += count;
            pending = true;
        }
    }

    /** Whether counts wait to be taken. */
    boolean pending() {
        return pending;
    }

    /** Hands every count to {@code visitor} and clears them; the walker's. */
    synchronized void take(Visitor visitor) {
        for (int i = 0; i < used; i++) {
            visitor.unwalked(tids[i], counts[i], false);
        }
        used = 0;
        if (lost > 0) {
            visitor.unwalked(0, lost, true);
            lost = 0;
        }
        pending = false;
    }
}
