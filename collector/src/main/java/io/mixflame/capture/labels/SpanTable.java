package io.mixflame.capture.labels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The trace spans the application's threads have made current lately, outside the Java heap: a ring of
 * {@value #CAPACITY} records (trace id, span id, the local root span's id and name), each under a handle small enough
 * to ride in a thread's {@link LabelLog} entry beside its label set. A thread writes a record when a span becomes
 * current on it that it has not written lately; the sampler reads it back by handle, seconds later at worst.
 *
 * <p>Any number of writers and readers, no lock: a writer claims a handle, blanks the record's handle word, writes the
 * record and publishes the handle last; a reader trusts a record only when its handle word reads the same before and
 * after. A record overwritten before it was read (the ring went round: {@value #CAPACITY} newer spans) reads as gone.
 *
 * <p>Also the clock of the profile's periods that the span bound counts in ({@link #period}), which the agent moves
 * at each period's end.
 */
public final class SpanTable {
    /** Records kept: at a thousand new spans a second, the last 16 seconds. */
    public static final int CAPACITY = 1 << 14;
    /** The handle of no span. */
    public static final int NONE = 0;

    private static final int RECORD = 40;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.nativeOrder());

    private final AtomicInteger lastHandle = new AtomicInteger();
    private final AtomicLong overflowed = new AtomicLong();
    private final AtomicLong gone = new AtomicLong();
    private final String[] rootNames = new String[CAPACITY];
    private final String[] endpoints = new String[CAPACITY];
    /** Made at the first span: a JVM without tracing never pays for it. */
    private volatile ByteBuffer records;
    private volatile int period;

    /**
     * Writes a span's record; its handle (never {@link #NONE}).
     *
     * @param traceHigh the trace id's first 8 bytes, big-endian
     * @param traceLow  its last 8
     * @param spanId    the span's id
     * @param rootId    its local root span's id (its own when it is one), or 0 when not known
     * @param rootName  the local root span's name, or null
     * @param endpoint  the request's endpoint, from its local root span where that is a server's, or null
     */
    public int put(long traceHigh, long traceLow, long spanId, long rootId, String rootName, String endpoint) {
        ByteBuffer r = records();
        int handle;
        do {
            handle = lastHandle.incrementAndGet() & Integer.MAX_VALUE;
        } while (handle == NONE);
        int at = (handle & (CAPACITY - 1)) * RECORD;
        LONGS.setVolatile(r, at, 0L);
        LONGS.set(r, at + 8, traceHigh);
        LONGS.set(r, at + 16, traceLow);
        LONGS.set(r, at + 24, spanId);
        LONGS.set(r, at + 32, rootId);
        rootNames[handle & (CAPACITY - 1)] = rootName;
        endpoints[handle & (CAPACITY - 1)] = endpoint;
        LONGS.setRelease(r, at, (long) handle);
        return handle;
    }

    /** Whether {@code handle}'s record is still there (not overwritten since). */
    public boolean holds(int handle) {
        ByteBuffer r = records;
        return handle != NONE && r != null
                && (long) LONGS.getAcquire(r, (handle & (CAPACITY - 1)) * RECORD) == handle;
    }

    /**
     * Reads {@code handle}'s record into {@code into}: trace id high and low, span id, root id; its root's name is
     * returned (its endpoint is {@link #endpoint}), and the whole is trusted only when {@link #holds} is still true
     * after (the caller checks).
     */
    public String read(int handle, long[] into) {
        ByteBuffer r = records;
        int at = (handle & (CAPACITY - 1)) * RECORD;
        into[0] = (long) LONGS.get(r, at + 8);
        into[1] = (long) LONGS.get(r, at + 16);
        into[2] = (long) LONGS.get(r, at + 24);
        into[3] = (long) LONGS.get(r, at + 32);
        String name = rootNames[handle & (CAPACITY - 1)];
        VarHandle.loadLoadFence();
        return name;
    }

    /** The endpoint of {@code handle}'s record; read before {@link #holds} is checked again, as {@link #read} is. */
    public String endpoint(int handle) {
        return endpoints[handle & (CAPACITY - 1)];
    }

    /** The profile's period now: a number that changes when one ends. */
    public int period() {
        return period;
    }

    /** The profile's period ended: the bound on distinct spans counts afresh. */
    public void nextPeriod() {
        period++;
    }

    /** Handles given out so far (they wrap past {@link Integer#MAX_VALUE}). */
    public int written() {
        return lastHandle.get();
    }

    /** A sample's span was past its period's bound: counted here for every engine's labeler. */
    void countOverflow() {
        overflowed.incrementAndGet();
    }

    /** A sample's span was overwritten before the sample was taken. */
    void countGone() {
        gone.incrementAndGet();
    }

    /** Samples whose spans were past their period's bound, so far. */
    public long overflowed() {
        return overflowed.get();
    }

    /** Samples whose spans the table no longer held when they were taken, so far. */
    public long gone() {
        return gone.get();
    }

    private ByteBuffer records() {
        ByteBuffer r = records;
        if (r == null) {
            synchronized (this) {
                r = records;
                if (r == null) {
                    r = ByteBuffer.allocateDirect(CAPACITY * RECORD).order(ByteOrder.nativeOrder());
                    records = r;
                }
            }
        }
        return r;
    }
}
