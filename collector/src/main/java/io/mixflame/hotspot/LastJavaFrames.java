package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.Arrays;

/**
 * Where each Java thread last left Java code, as the JVM records it when a thread calls native code or the VM (its
 * frame anchor: the last Java frame's sp, pc and fp): from there the Java part of a stack can be walked when the
 * native part cannot. Threads are found by OS thread id through an index of the JVM's thread list, read again (at
 * most every {@value #REFRESH_NANOS} ns) when a thread it does not know is asked for; a lookup allocates nothing.
 *
 * <p>A sample is walked a moment after it was taken, and by then a thread that calls native code in a loop may be
 * back in Java between two calls, its anchor cleared. The last anchor seen of each thread is kept for that case;
 * whoever uses an anchor checks it against the sample's own stack (a call from that frame was in progress).
 */
final class LastJavaFrames {
    private static final long REFRESH_NANOS = 200_000_000L;
    private static final int MAX_THREADS = 100_000;

    private final HotSpotLayout layout;
    private final VmReader reader;
    /** Sorted OS thread ids and, at the same index, their JavaThread's address. */
    private int[] tids = new int[0];
    private long[] threads = new long[0];
    /** The last anchor seen of the thread at the same index: sp, fp, pc. */
    private long[] lastSeen = new long[0];
    private long lastRefresh = Long.MIN_VALUE / 2;

    LastJavaFrames(HotSpotLayout layout, VmReader reader) {
        this.layout = layout;
        this.reader = reader;
    }

    /**
     * Fills {@code out} with the thread's last Java frame: sp, fp and pc (0 when the JVM did not record it; the
     * return address below sp is then the pc).
     *
     * @return false when the thread is not a Java thread, or is in Java code (no frame recorded)
     */
    boolean read(int tid, long[] out) {
        int at = index(tid);
        if (at < 0) {
            return false;
        }
        try {
            long anchor = threads[at] + layout.threadAnchor;
            long sp = reader.u64(anchor + layout.anchorSp);
            if (sp != 0) {
                lastSeen[3 * at] = sp;
                lastSeen[3 * at + 1] = reader.u64(anchor + layout.anchorFp);
                lastSeen[3 * at + 2] = reader.u64(anchor + layout.anchorPc);
            }
        } catch (MemoryReadException e) {
            // The last anchor seen, if any, is all there is.
        }
        if (lastSeen[3 * at] == 0) {
            return false;
        }
        System.arraycopy(lastSeen, 3 * at, out, 0, 3);
        return true;
    }

    private int index(int tid) {
        int at = Arrays.binarySearch(tids, tid);
        if (at >= 0) {
            return at;
        }
        long now = System.nanoTime();
        if (now - lastRefresh < REFRESH_NANOS) {
            return -1;
        }
        lastRefresh = now;
        refresh();
        return Arrays.binarySearch(tids, tid);
    }

    /** Reads the thread list's ids and addresses (no names: those take reads of the Java heap). */
    private void refresh() {
        try {
            long list = reader.u64(layout.threadListVariable);
            int length = reader.s32(list + layout.threadListLength);
            long array = reader.u64(list + layout.threadListThreads);
            if (length < 0 || length > MAX_THREADS) {
                return;
            }
            long[] packed = new long[length];
            int n = 0;
            long[] byIndex = new long[length];
            for (int i = 0; i < length; i++) {
                long thread = reader.u64(array + 8L * i);
                long osThread = reader.u64(thread + layout.threadOsThread);
                if (osThread == 0) {
                    continue;
                }
                long tid = reader.field(osThread + layout.osThreadId, layout.osThreadIdWidth, false);
                if (tid <= 0 || tid > Integer.MAX_VALUE) {
                    continue;
                }
                byIndex[n] = thread;
                packed[n] = tid << 32 | n;
                n++;
            }
            if (reader.u64(layout.threadListVariable) != list) {
                return;
            }
            Arrays.sort(packed, 0, n);
            int[] newTids = new int[n];
            long[] newThreads = new long[n];
            long[] newSeen = new long[3 * n];
            for (int i = 0; i < n; i++) {
                newTids[i] = (int) (packed[i] >>> 32);
                newThreads[i] = byIndex[(int) packed[i]];
                int old = Arrays.binarySearch(tids, newTids[i]);
                if (old >= 0 && threads[old] == newThreads[i]) {
                    System.arraycopy(lastSeen, 3 * old, newSeen, 3 * i, 3);
                }
            }
            tids = newTids;
            threads = newThreads;
            lastSeen = newSeen;
        } catch (MemoryReadException e) {
            // Left as it was: the next unknown thread asks again.
        }
    }
}
