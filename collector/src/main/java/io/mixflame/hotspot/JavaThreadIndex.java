package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.util.Arrays;

/**
 * The JVM's Java threads by OS thread id: sorted ids and, at the same index, their {@code JavaThread}'s address, read
 * from the thread list (two words a thread, no names). Read again, at most every {@value #REFRESH_NANOS} ns, when a
 * thread it does not know is asked for; a look-up of a known thread allocates nothing and reads nothing. A thread
 * asked for and still not on the list when it was read again twice (a thread that is not a Java thread: the
 * collector's, a library's; a Java thread only starting is on it by the second) does not make it read again for
 * {@value #ABSENT_NANOS} ns: with thousands of threads a reading is thousands of reads.
 */
class JavaThreadIndex {
    private static final long REFRESH_NANOS = 200_000_000L;
    private static final int MAX_THREADS = 100_000;
    private static final int ATTEMPTS = 5;
    private static final long ABSENT_NANOS = 10_000_000_000L;
    private static final int ABSENT_SLOTS = 1 << 12;

    private final HotSpotLayout layout;
    private final VmReader reader;
    private int[] tids = new int[0];
    private long[] threads = new long[0];
    private long lastRefresh = Long.MIN_VALUE / 2;
    /** Threads found absent from the list when it was last read for them (open addressing, emptied when stale). */
    private final int[] absent = new int[ABSENT_SLOTS];
    /** Threads found absent once: absent a second time, they are {@link #absent}. */
    private final int[] absentOnce = new int[ABSENT_SLOTS];
    private int absentCount;
    private long absentSince = Long.MIN_VALUE / 2;

    JavaThreadIndex(HotSpotLayout layout, VmReader reader) {
        this.layout = layout;
        this.reader = reader;
    }

    /** The index of thread {@code tid}, the list read again first when it is not known (and not read lately); or -1. */
    int find(int tid) {
        int at = Arrays.binarySearch(tids, tid);
        if (at >= 0) {
            return at;
        }
        long now = System.nanoTime();
        if (now - absentSince >= ABSENT_NANOS || absentCount >= ABSENT_SLOTS / 2) {
            Arrays.fill(absent, 0);
            Arrays.fill(absentOnce, 0);
            absentCount = 0;
            absentSince = now;
        }
        if (now - lastRefresh < REFRESH_NANOS || contains(absent, tid)) {
            return -1;
        }
        lastRefresh = now;
        int[] before = tids;
        long[] beforeThreads = threads;
        if (refresh()) {
            moved(before, beforeThreads);
        }
        at = Arrays.binarySearch(tids, tid);
        if (at < 0) {
            markAbsent(tid);
        }
        return at;
    }

    private void markAbsent(int tid) {
        if (tid > 0) {
            add(contains(absentOnce, tid) ? absent : absentOnce, tid);
        }
    }

    private static boolean contains(int[] set, int tid) {
        for (int i = slot(tid); set[i] != 0; i = (i + 1) & (ABSENT_SLOTS - 1)) {
            if (set[i] == tid) {
                return true;
            }
        }
        return false;
    }

    private void add(int[] set, int tid) {
        if (contains(set, tid)) {
            return;
        }
        int i = slot(tid);
        while (set[i] != 0) {
            i = (i + 1) & (ABSENT_SLOTS - 1);
        }
        set[i] = tid;
        absentCount++;
    }

    private static int slot(int tid) {
        return (tid * 0x9E3779B9) >>> 20;
    }

    /**
     * Reads the thread list again now, whatever the time since the last read.
     *
     * @return false when it could not be read consistently (the index is as it was)
     */
    boolean refreshNow() {
        lastRefresh = System.nanoTime();
        int[] before = tids;
        long[] beforeThreads = threads;
        if (!refresh()) {
            return false;
        }
        moved(before, beforeThreads);
        return true;
    }

    /** The index of thread {@code tid} as last read, without reading the list; or -1. */
    int indexOf(int tid) {
        return Arrays.binarySearch(tids, tid);
    }

    /** The {@code JavaThread} at {@code index}. */
    long thread(int index) {
        return threads[index];
    }

    /** Threads indexed. */
    int size() {
        return tids.length;
    }

    /** The OS thread id at {@code index}. */
    int tid(int index) {
        return tids[index];
    }

    /**
     * Told after each refresh that changed the index, with the ids and threads it had before: whoever keeps data at
     * the same indexes moves it.
     */
    void moved(int[] oldTids, long[] oldThreads) {
        // Nothing kept beside the index by default.
    }

    /**
     * Reads the thread list's ids and addresses; false when it could not be read consistently. The JVM replaces the
     * list whenever a thread starts or ends (its compiler threads come and go), so a read that saw it replaced is
     * tried again, a few times.
     */
    private boolean refresh() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            if (read()) {
                return true;
            }
        }
        return false;
    }

    /** The unsigned field of {@code width} bytes at the start of a little-endian word. */
    private static long narrowed(long word, int width) {
        return width == 8 ? word : word & ((1L << (8 * width)) - 1);
    }

    private boolean read() {
        try {
            long list = reader.readLong(layout.threadListVariable);
            int length = reader.s32(list + layout.threadListLength);
            long array = reader.readLong(list + layout.threadListThreads);
            if (length < 0 || length > MAX_THREADS) {
                return false;
            }
            long[] packed = new long[length];
            long[] byIndex = new long[length];
            // Three gathered reads for the whole list (its entries, their OSThreads, their ids), not three a thread:
            // each read is a call into native code, whose return waits out a safepoint in progress.
            long[] addresses = new long[length];
            long[] words = new long[length];
            boolean[] read = new boolean[length];
            ProcessMemory memory = reader.memory();
            for (int i = 0; i < length; i++) {
                addresses[i] = array + 8L * i;
            }
            memory.readWords(addresses, length, byIndex, read);
            for (int i = 0; i < length; i++) {
                if (!read[i]) {
                    return false;
                }
                addresses[i] = byIndex[i] + layout.threadOsThread;
            }
            memory.readWords(addresses, length, words, read);
            long[] osThreads = new long[length];
            for (int i = 0; i < length; i++) {
                osThreads[i] = read[i] ? words[i] : 0;
                addresses[i] = osThreads[i] + layout.osThreadId;
            }
            memory.readWords(addresses, length, words, read);
            int n = 0;
            for (int i = 0; i < length; i++) {
                if (osThreads[i] == 0) {
                    continue;
                }
                // A word read at the id's field; one read of the field alone where the word runs past what is mapped.
                long tid = read[i] ? narrowed(words[i], layout.osThreadIdWidth)
                        : reader.field(osThreads[i] + layout.osThreadId, layout.osThreadIdWidth, false);
                if (tid <= 0 || tid > Integer.MAX_VALUE) {
                    continue;
                }
                byIndex[n] = byIndex[i];
                packed[n] = tid << 32 | n;
                n++;
            }
            if (reader.readLong(layout.threadListVariable) != list) {
                return false;
            }
            Arrays.sort(packed, 0, n);
            int[] newTids = new int[n];
            long[] newThreads = new long[n];
            for (int i = 0; i < n; i++) {
                newTids[i] = (int) (packed[i] >>> 32);
                newThreads[i] = byIndex[(int) packed[i]];
            }
            tids = newTids;
            threads = newThreads;
            return true;
        } catch (MemoryReadException e) {
            return false; // left as it was: the next unknown thread asks again
        }
    }
}
