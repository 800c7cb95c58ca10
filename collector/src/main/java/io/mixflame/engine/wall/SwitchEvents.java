package io.mixflame.engine.wall;

/**
 * One drain's threads' switches onto and off CPUs and their cpu samples, put in time order before they are applied.
 * The rings are per CPU and drained one after another, so a thread that moved between CPUs has its events out of
 * order as drained: its switch off one CPU to wait can come after its switch onto another when it woke. Sorted, the
 * wall clock reads each thread's states in the order they were. Events past the time up to which every ring's records
 * were read are kept for the next drain, which may bring older ones from another ring. Bounded: a full buffer takes no
 * more until applied and cleared, the rest waiting in the rings. Arrays made once (two sets, swapped as events are
 * kept); a stable merge sort over indexes, with no allocation. On the sampler thread only.
 */
final class SwitchEvents {
    /** A cpu sample: the thread ran then. */
    static final int SAMPLE = 3;

    private long[] times;
    private int[] tids;
    private byte[] kinds;
    /** Where {@link #keepFrom} copies the events it keeps, then swapped with the arrays above. */
    private long[] spareTimes;
    private int[] spareTids;
    private byte[] spareKinds;
    private final int[] order;
    private final int[] scratch;
    private int size;

    SwitchEvents(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        times = new long[capacity];
        tids = new int[capacity];
        kinds = new byte[capacity];
        spareTimes = new long[capacity];
        spareTids = new int[capacity];
        spareKinds = new byte[capacity];
        order = new int[capacity];
        scratch = new int[capacity];
    }

    /** Whether another event fits. */
    boolean hasRoom() {
        return size < times.length;
    }

    /**
     * Adds thread {@code tid}'s event {@code kind} ({@link io.mixflame.capture.perf.SampleCapture.SwitchListener}'s
     * kinds, or {@link #SAMPLE}) at {@code time}; false, and nothing kept, when full.
     */
    boolean add(int tid, int kind, long time) {
        if (size == times.length) {
            return false;
        }
        times[size] = time;
        tids[size] = tid;
        kinds[size] = (byte) kind;
        order[size] = size;
        size++;
        return true;
    }

    int size() {
        return size;
    }

    /** Puts the events in time order, those of one time in the order they were added. */
    void sort() {
        int n = size;
        int[] from = order;
        int[] to = scratch;
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    to[k++] = times[from[j]] < times[from[i]] ? from[j++] : from[i++];
                }
                while (i < mid) {
                    to[k++] = from[i++];
                }
                while (j < hi) {
                    to[k++] = from[j++];
                }
            }
            int[] t = from;
            from = to;
            to = t;
        }
        if (from != order) {
            System.arraycopy(from, 0, order, 0, n);
        }
    }

    /** The time of the {@code i}-th event in order (after {@link #sort}). */
    long time(int i) {
        return times[order[i]];
    }

    int tid(int i) {
        return tids[order[i]];
    }

    int kind(int i) {
        return kinds[order[i]];
    }

    void clear() {
        size = 0;
    }

    /**
     * Keeps the events from the {@code i}-th in order on (after {@link #sort}), in that order, as the first ones; those
     * before it are dropped (applied).
     */
    void keepFrom(int i) {
        int kept = size - i;
        for (int k = 0; k < kept; k++) {
            int from = order[i + k];
            spareTimes[k] = times[from];
            spareTids[k] = tids[from];
            spareKinds[k] = kinds[from];
        }
        long[] t = times;
        times = spareTimes;
        spareTimes = t;
        int[] d = tids;
        tids = spareTids;
        spareTids = d;
        byte[] b = kinds;
        kinds = spareKinds;
        spareKinds = b;
        for (int k = 0; k < kept; k++) {
            order[k] = k;
        }
        size = kept;
    }
}
