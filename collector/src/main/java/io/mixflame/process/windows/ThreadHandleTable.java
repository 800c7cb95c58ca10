package io.mixflame.process.windows;

import java.util.Arrays;

/**
 * Open handles to the threads of a process by thread id, with two numbers kept beside each (a stack's limits, say):
 * a thread is opened once while it is sampled, not once per sample, and found again without boxing its id. Bounded:
 * when full every handle is closed and the table starts empty; {@link #retainOnly} closes the handles of threads
 * that ended. Not thread-safe.
 */
public final class ThreadHandleTable implements AutoCloseable {
    private static final int NONE = 0;

    private final int access;
    private final int capacity;
    private int[] tids;
    private long[] handles;
    private long[] first;
    private long[] second;
    private int mask;
    private int size;

    /**
     * @param access   the rights each thread is opened with ({@code THREAD_*})
     * @param capacity the number of threads held at most
     */
    public ThreadHandleTable(int access, int capacity) {
        this.access = access;
        this.capacity = capacity;
        int table = Integer.highestOneBit(Math.max(16, capacity) * 2 - 1) << 1;
        tids = new int[table];
        handles = new long[table];
        first = new long[table];
        second = new long[table];
        mask = table - 1;
    }

    /**
     * The slot of thread {@code tid}, opening it first when it is not held; -1 when it cannot be opened (it ended,
     * or access is denied). A slot is valid until the next call that opens, forgets or retains.
     */
    public int slotOf(int tid) {
        int i = find(tid);
        if (tids[i] == tid && tid != NONE) {
            return i;
        }
        if (tid == NONE) {
            return -1;
        }
        long handle = Kernel32Calls.OpenThread(access, false, tid);
        if (handle == 0) {
            return -1;
        }
        if (size >= capacity) {
            closeAll();
            i = find(tid);
        }
        tids[i] = tid;
        handles[i] = handle;
        first[i] = 0;
        second[i] = 0;
        size++;
        return i;
    }

    /** The handle in a slot. */
    public long handle(int slot) {
        return handles[slot];
    }

    /** The first number kept in a slot (0 until set). */
    public long first(int slot) {
        return first[slot];
    }

    /** The second number kept in a slot (0 until set). */
    public long second(int slot) {
        return second[slot];
    }

    /** Keeps two numbers with a thread's handle. */
    public void keep(int slot, long a, long b) {
        first[slot] = a;
        second[slot] = b;
    }

    /** Closes the handle of thread {@code tid}, if held. */
    public void forget(int tid) {
        int i = find(tid);
        if (tids[i] == tid && tid != NONE) {
            int[] alive = new int[size];
            int n = 0;
            for (int t : tids) {
                if (t != NONE && t != tid) {
                    alive[n++] = t;
                }
            }
            retainOnly(alive, n);
        }
    }

    /** Closes the handles of every thread not among the first {@code n} of {@code alive}. */
    public void retainOnly(int[] alive, int n) {
        int[] sorted = Arrays.copyOf(alive, n);
        Arrays.sort(sorted);
        if (!anyEnded(sorted)) {
            // The common case, at every listing: nothing to close, and no table rebuilt.
            return;
        }
        int[] oldTids = tids;
        long[] oldHandles = handles;
        long[] oldFirst = first;
        long[] oldSecond = second;
        tids = new int[oldTids.length];
        handles = new long[oldTids.length];
        first = new long[oldTids.length];
        second = new long[oldTids.length];
        size = 0;
        for (int k = 0; k < oldTids.length; k++) {
            int t = oldTids[k];
            if (t == NONE) {
                continue;
            }
            if (Arrays.binarySearch(sorted, t) >= 0) {
                int i = find(t);
                tids[i] = t;
                handles[i] = oldHandles[k];
                first[i] = oldFirst[k];
                second[i] = oldSecond[k];
                size++;
            } else {
                Kernel32Calls.CloseHandle(oldHandles[k]);
            }
        }
    }

    private boolean anyEnded(int[] sortedAlive) {
        for (int t : tids) {
            if (t != NONE && Arrays.binarySearch(sortedAlive, t) < 0) {
                return true;
            }
        }
        return false;
    }

    /** Threads held. */
    public int size() {
        return size;
    }

    private int find(int tid) {
        int i = (tid * 0x9E3779B9) >>> 7 & mask;
        while (tids[i] != NONE && tids[i] != tid) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void closeAll() {
        for (int k = 0; k < tids.length; k++) {
            if (tids[k] != NONE) {
                Kernel32Calls.CloseHandle(handles[k]);
            }
        }
        Arrays.fill(tids, NONE);
        size = 0;
    }

    @Override
    public void close() {
        closeAll();
    }
}
