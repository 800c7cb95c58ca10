package io.mixflame.capture.perf;

import io.mixflame.process.ThreadSource;

/**
 * The threads of a {@link PerCpuPerfCapture} that have events of their own with a larger stack copy than the one
 * they inherited: each one's id, its copy, and its events (one per CPU), at the same index. Bounded, plain arrays: the
 * drain looks a sample's thread up here, among a few dozen ids, without boxing.
 */
final class GrownThreads {
    private final PerfSyscalls sys;
    private final int[] tids;
    private final int[] bytes;
    private final int[][] fds;
    private int count;

    /** At most {@code capacity} threads, whose events {@code sys} closes. */
    GrownThreads(int capacity, PerfSyscalls sys) {
        this.sys = sys;
        this.tids = new int[capacity];
        this.bytes = new int[capacity];
        this.fds = new int[capacity][];
    }

    /** Whether no thread has grown: the drain's test then costs nothing. */
    boolean none() {
        return count == 0;
    }

    /** Whether another thread would be one too many. */
    boolean full() {
        return count == tids.length;
    }

    /** The index of thread {@code tid}, or -1 when it has not grown. */
    int indexOf(int tid) {
        for (int i = 0; i < count; i++) {
            if (tids[i] == tid) {
                return i;
            }
        }
        return -1;
    }

    /** The copy of the thread at {@code index}. */
    int bytes(int index) {
        return bytes[index];
    }

    /**
     * Records thread {@code tid}'s new events, of copies of {@code stackBytes}, closing those it had; {@code at} is
     * its index, or -1 for a thread not grown before (there must be room).
     */
    void put(int at, int tid, int stackBytes, int[] events) {
        if (at < 0) {
            at = count++;
            tids[at] = tid;
        } else {
            closeEvents(at);
        }
        bytes[at] = stackBytes;
        fds[at] = events;
    }

    /**
     * Closes the events of the threads that ended, asking after each of them alone (at most the capacity): the
     * process's threads, a thousand or more, are not listed.
     */
    void closeEnded(ThreadSource threads) {
        int i = 0;
        while (i < count) {
            if (threads.alive(tids[i])) {
                i++;
                continue;
            }
            closeEvents(i);
            count--;
            tids[i] = tids[count];
            bytes[i] = bytes[count];
            fds[i] = fds[count];
            fds[count] = null;
        }
    }

    /** Closes every grown thread's events. */
    void close() {
        for (int i = 0; i < count; i++) {
            closeEvents(i);
            fds[i] = null;
        }
        count = 0;
    }

    private void closeEvents(int index) {
        for (int fd : fds[index]) {
            sys.close(fd);
        }
    }
}
