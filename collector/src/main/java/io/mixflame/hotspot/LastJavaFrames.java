package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.Arrays;

/**
 * Where each Java thread last left Java code, as the JVM records it when a thread calls native code or the VM (its
 * frame anchor: the last Java frame's sp, pc and fp): from there the Java part of a stack can be walked when the
 * native part cannot. Threads are found by OS thread id through a {@link JavaThreadIndex}; a look-up allocates
 * nothing.
 *
 * <p>A sample is walked a moment after it was taken, and by then a thread that calls native code in a loop may be
 * back in Java between two calls, its anchor cleared. The last anchor seen of each thread is kept for that case;
 * whoever uses an anchor checks it against the sample's own stack (a call from that frame was in progress).
 */
final class LastJavaFrames {
    /** The threads, and the last anchor seen of each at the same index (sp, fp, pc) kept across refreshes. */
    private final Index index;
    private final HotSpotLayout layout;
    private final VmReader reader;

    LastJavaFrames(HotSpotLayout layout, VmReader reader) {
        this.layout = layout;
        this.reader = reader;
        this.index = new Index(layout, reader);
    }

    /**
     * Fills {@code out} with the thread's last Java frame: sp, fp and pc (0 when the JVM did not record it; the
     * return address below sp is then the pc).
     *
     * @return false when the thread is not a Java thread, or is in Java code (no frame recorded)
     */
    boolean read(int tid, long[] out) {
        int at = index.find(tid);
        if (at < 0) {
            return false;
        }
        long[] lastSeen = index.lastSeen;
        try {
            long anchor = index.thread(at) + layout.threadAnchor;
            long sp = reader.readLong(anchor + layout.anchorSp);
            if (sp != 0) {
                lastSeen[3 * at] = sp;
                lastSeen[3 * at + 1] = reader.readLong(anchor + layout.anchorFp);
                lastSeen[3 * at + 2] = reader.readLong(anchor + layout.anchorPc);
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

    /** The thread index, keeping each thread's last anchor at its index when the list is read again. */
    private static final class Index extends JavaThreadIndex {
        long[] lastSeen = new long[0];

        Index(HotSpotLayout layout, VmReader reader) {
            super(layout, reader);
        }

        @Override
        void moved(int[] oldTids, long[] oldThreads) {
            long[] seen = new long[3 * size()];
            for (int i = 0; i < size(); i++) {
                int old = Arrays.binarySearch(oldTids, tid(i));
                if (old >= 0 && oldThreads[old] == thread(i) && 3 * old < lastSeen.length) {
                    System.arraycopy(lastSeen, 3 * old, seen, 3 * i, 3);
                }
            }
            lastSeen = seen;
        }
    }
}
