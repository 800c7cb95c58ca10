package io.mixflame.capture.labels;

import io.mixflame.process.OwnThreadId;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;

/**
 * What the application's threads call when their labels change (through the instrumentation of HTTP servers and
 * the {@code mixflame-api}): each change is interned into a {@link LabelSets} id and written with the time into the
 * thread's ring of the {@link LabelLog}, where the sampler finds what was in force when a sample was taken.
 *
 * <p>Entering returns a token that restores what was in force before when given to {@link #exit}: scopes nest. A
 * token carries the recorder's epoch, so that one from an earlier profiling run (a request that outlived a stop and
 * a start) restores nothing. Called on the application's request path: no locks once a thread has its slot and the
 * set is known, no allocation for a change seen before by the same thread.
 */
public final class LabelRecorder implements LabelSource {
    /** A token that restores nothing: what entering returns when the recorder is off. */
    public static final long NO_TOKEN = 0;

    private static int lastEpoch;

    private final LabelSets sets;
    private final LabelLog log;
    private final OwnThreadId threadIds;
    private final long epochBits;
    private final PerThread threads = new PerThread();
    private final CarrierSlots carriers = new CarrierSlots();
    private volatile boolean on = true;
    private volatile SpanTable spanTable;
    private boolean rootSpans;
    private boolean spanIds;
    private boolean spanEndpoints;
    private int spansPerPeriod;

    /**
     * @param sets      where label sets are interned
     * @param log       where changes are written
     * @param threadIds the kernel's id of the calling thread, as samples name it
     */
    public LabelRecorder(LabelSets sets, LabelLog log, OwnThreadId threadIds) {
        this.sets = sets;
        this.log = log;
        this.threadIds = threadIds;
        this.epochBits = (long) nextEpoch() << 32;
    }

    private static synchronized int nextEpoch() {
        lastEpoch = lastEpoch == Integer.MAX_VALUE ? 1 : lastEpoch + 1;
        return lastEpoch;
    }

    /**
     * The calling thread now also has {@code key} = {@code value} (replacing the key's value); returns the token that
     * restores what it had. An invalid key ({@link LabelKeys#valid}) changes nothing.
     */
    public long enter(String key, String value) {
        if (!on || key == null) {
            return NO_TOKEN;
        }
        ThreadLabels t = threads.get();
        int before = t.current;
        change(t, t.step(sets, before, key, value));
        return epochBits | before;
    }

    /**
     * The calling thread now also has the labels {@code keyValues} (key, value, key, value…); returns the token that
     * restores what it had. Pairs with an invalid key are left out.
     */
    public long enter(String[] keyValues) {
        if (!on || keyValues == null) {
            return NO_TOKEN;
        }
        ThreadLabels t = threads.get();
        int before = t.current;
        int set = before;
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            if (keyValues[i] != null) {
                set = t.step(sets, set, keyValues[i], keyValues[i + 1]);
            }
        }
        change(t, set);
        return epochBits | before;
    }

    /** Restores what {@code token} says the calling thread had; a token of another run restores nothing. */
    public void exit(long token) {
        if (!on || (token & 0xFFFF_FFFF_0000_0000L) != epochBits) {
            return;
        }
        change(threads.get(), (int) token);
    }

    /**
     * Records spans from now on: threads then say which span is current on them ({@link #spanCurrent}), and samples
     * carry it. Called before the engines make their labelers.
     *
     * @param root      whether samples carry their local root span (else the innermost)
     * @param perPeriod distinct spans in a period of the profile at most; the rest are {@code [span_id=other]}
     * @param ids       whether samples carry their span's ids (else only the endpoint its server span names)
     * @param endpoints whether samples carry the {@code endpoint} their request's server span names, where their
     *                  own labels have none
     */
    public void recordSpans(boolean root, int perPeriod, boolean ids, boolean endpoints) {
        this.rootSpans = root;
        this.spansPerPeriod = perPeriod;
        this.spanIds = ids;
        this.spanEndpoints = endpoints;
        this.spanTable = new SpanTable();
    }

    /** Whether samples carry their span's ids. */
    public boolean spanIds() {
        return spanIds;
    }

    /** Whether samples carry their server span's endpoint. */
    public boolean spanEndpoints() {
        return spanEndpoints;
    }

    /** Whether spans are recorded. */
    public boolean spansRecorded() {
        return spanTable != null;
    }

    /** The table of spans, or null where they are not recorded. */
    public SpanTable spanTable() {
        return spanTable;
    }

    /** Whether samples carry their local root span. */
    public boolean rootSpans() {
        return rootSpans;
    }

    /** Distinct spans in a period at most. */
    public int spansPerPeriod() {
        return spansPerPeriod;
    }

    /**
     * The handle the calling thread wrote lately for the span object {@code span}, while the table still holds it;
     * else {@link SpanTable#NONE}: the caller then reads the span and gives it to {@link #spanCurrent(Object, long,
     * long, long, long, String)}. A span made current again (a scope closed back to its parent) costs no record.
     */
    public int knownSpan(Object span) {
        SpanTable table = spanTable;
        if (!on || table == null || span == null) {
            return SpanTable.NONE;
        }
        ThreadLabels t = threads.get();
        int handle = span == t.spanA ? t.handleA : span == t.spanB ? t.handleB : SpanTable.NONE;
        return table.holds(handle) ? handle : SpanTable.NONE;
    }

    /** The handle of the span the calling thread is in now ({@link SpanTable#NONE}: none). */
    public int currentSpan() {
        return spanTable == null ? SpanTable.NONE : threads.get().span;
    }

    /** The calling thread is now in the span of handle {@code handle} ({@link SpanTable#NONE}: in none). */
    public void spanCurrent(int handle) {
        if (!on || spanTable == null) {
            return;
        }
        ThreadLabels t = threads.get();
        if (handle != t.span) {
            t.span = handle;
            write(t);
        }
    }

    /**
     * The calling thread is now in span object {@code span}, read by the caller: trace id (high and low halves), span
     * id, local root's id (0: not known) and name, and the endpoint of its request (null: none known). Writes its
     * record and remembers it for {@link #knownSpan}; returns its handle ({@link SpanTable#NONE} when off).
     */
    public int spanCurrent(Object span, long traceHigh, long traceLow, long spanId, long rootId, String rootName,
                           String endpoint) {
        SpanTable table = spanTable;
        if (!on || table == null) {
            return SpanTable.NONE;
        }
        int handle = table.put(traceHigh, traceLow, spanId, rootId, rootName, endpoint);
        ThreadLabels t = threads.get();
        t.spanB = t.spanA;
        t.handleB = t.handleA;
        t.spanA = span;
        t.handleA = handle;
        if (handle != t.span) {
            t.span = handle;
            write(t);
        }
        return handle;
    }

    private void change(ThreadLabels t, int set) {
        if (set == t.current) {
            return;
        }
        t.current = set;
        write(t);
    }

    /** Writes what the thread has now, its set and its span, into its ring. */
    private void write(ThreadLabels t) {
        if (t.virtual) {
            writeOnCarrier(t.current, t.span);
            return;
        }
        if (t.slot == ThreadLabels.UNREGISTERED) {
            t.slot = log.register(Thread.currentThread(), threadIds.current());
            if (t.slot >= 0) {
                t.page = log.page(t.slot);
                t.base = LabelLog.base(t.slot);
            }
        }
        if (t.slot >= 0) {
            LabelLog.record(t.page, t.base, t.count++, System.nanoTime(), t.current, t.span);
        }
    }

    /**
     * A virtual thread has just been mounted on its carrier (the calling thread is the virtual one, on the carrier's
     * kernel thread): the carrier's slot says what it has from now on. Samples name kernel threads, so a virtual
     * thread's labels and span are written where its carrier is sampled, while it is mounted there.
     */
    public void mounted() {
        if (!on) {
            return;
        }
        ThreadLabels t = threads.get();
        if (t.virtual && (t.current != LabelSets.NONE || t.span != SpanTable.NONE)) {
            writeOnCarrier(t.current, t.span);
        }
    }

    /** A virtual thread is about to be unmounted from its carrier: the carrier's slot says nothing from now on. */
    public void unmounting() {
        if (!on) {
            return;
        }
        ThreadLabels t = threads.get();
        if (t.virtual && (t.current != LabelSets.NONE || t.span != SpanTable.NONE)) {
            writeOnCarrier(LabelSets.NONE, SpanTable.NONE);
        }
    }

    private void writeOnCarrier(int set, int span) {
        CarrierSlots.Slot c = carriers.of(threadIds.current(), log);
        if (c != null) {
            LabelLog.record(c.page, c.base, c.count++, System.nanoTime(), set, span);
        }
    }

    /** A labeler of this process's samples: it reads the log in place. */
    @Override
    public SampleLabeler labeler(ProcessMemory memory) {
        return new SampleLabels(this);
    }

    /** From now on entering and leaving change nothing: the instrumentation stays but is inert. */
    public void stop() {
        on = false;
    }

    /** Whether it records. */
    public boolean on() {
        return on;
    }

    /** The sets it interns into. */
    public LabelSets sets() {
        return sets;
    }

    /** The log it writes. */
    public LabelLog log() {
        return log;
    }

    /** One thread's own state: its slot, how many changes it wrote, what is in force, its last step. */
    private static final class ThreadLabels {
        static final int UNREGISTERED = -2;

        int slot = UNREGISTERED;
        /** A virtual thread writes into its carrier's slot, not one of its own. */
        final boolean virtual = VirtualThreads.isVirtual(Thread.currentThread());
        ByteBuffer page;
        int base;
        long count;
        int current = LabelSets.NONE;
        int span = SpanTable.NONE;
        // The last two spans written, and their handles: a scope closed goes back to its parent.
        Object spanA;
        int handleA;
        Object spanB;
        int handleB;
        // The last step taken: a thread serving one endpoint after another repeats it with the same strings.
        int lastBase = -1;
        String lastKey;
        String lastValue;
        int lastSet;

        int step(LabelSets sets, int base, String key, String value) {
            if (base == lastBase && key == lastKey && value == lastValue) {
                return lastSet;
            }
            int set = LabelKeys.valid(key) ? sets.with(base, key, value) : base;
            lastBase = base;
            lastKey = key;
            lastValue = value;
            lastSet = set;
            return set;
        }
    }

    /** A subclass rather than {@code withInitial}: no lambda on the application's path. */
    private static final class PerThread extends ThreadLocal<ThreadLabels> {
        @Override
        protected ThreadLabels initialValue() {
            return new ThreadLabels();
        }
    }
}
