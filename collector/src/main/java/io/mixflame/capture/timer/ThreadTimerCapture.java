package io.mixflame.capture.timer;

import com.sun.jna.Pointer;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.CostFigures;
import io.mixflame.capture.perf.OnlineCpus;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.PerfCaptureUnavailableException;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.ProcThreadSource;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples every thread of this process from inside it: each thread gets a timer on its own CPU clock whose signal
 * the thread itself takes, and the handler copies the thread's registers and stack top into {@link TimerRing} —
 * whether or not any profiler thread runs. The sampler thread drains the ring into {@link RawSample}s as it drains
 * perf's rings; a drain leaves samples in the ring while the walker has no room for them, so a stalled walker costs
 * ring space, not samples, and a full ring counts what it refused as lost. Threads started later get a timer when
 * the sampler lists the threads again; ended threads' timers are deleted. Each expiry the kernel merged into one
 * signal (a CPU timer is checked at scheduler ticks) is an interval of CPU time the sample stands for: its weight,
 * where the thread has no slot of the ring's region table (all taken). Each thread's timer names a slot of the ring's region table, where the handler accounts the thread's CPU time
 * (so a sample's weight is the whole intervals of CPU it stands for, whatever ticks the kernel saw) and, once a drain
 * has seen the thread's first samples (copied with {@code process_vm_readv}) and found its stack in
 * {@code /proc/self/maps} (the mapping holding its sp, up to its TLS block), the stack's bounds, within which the
 * handler copies with plain loads from then on. Threads whose timers are past their expiry without the kernel having
 * seen it are signalled by the sampler ({@link #catchUp}).
 * Not thread-safe: one sampler thread drives it.
 */
public final class ThreadTimerCapture implements SampleCapture {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadTimerCapture.class);
    /** SIGPROF: the JVM does not use it; signals of it that are not the sampler's go to the handler before. */
    static final int SIGNAL = 27;
    /** The ring holds this long of samples of every CPU busy, between these bounds. */
    private static final long RING_HOLDS_NANOS = 4_000_000_000L;
    static final long MIN_RING_BYTES = 4L << 20;
    static final long MAX_RING_BYTES = 64L << 20;
    private static final int UNINSTALL_WAIT_MILLIS = 1_000;
    /**
     * How often the threads' timers are asked whether they are past their expiry unseen: a system call per thread
     * with a slot (about a microsecond each).
     */
    private static final long NUDGE_EVERY_NANOS = 50_000_000L;
    private static final long HIGHEST_NANOS = 1_000_000_000L;

    private final PerfCaptureSettings settings;
    private final ThreadSource threads;
    private final long ringBytes;
    private final ThreadTimers timers;
    private final RawSample sample;
    private final RecordReader reader = new RecordReader();
    /** What the handler cost each sampled thread, from its entry to the record's commit. */
    private final Histogram handlerNanos = new Histogram(HIGHEST_NANOS, 2);
    private TimerRing ring;
    /** Finds the stacks of threads whose samples were copied with process_vm_readv. */
    private final StackLocator stacks = new StackLocator();
    private final Placement placement = new Placement();
    private long lastNudgeNanos;
    /** The ring's counters as they were when it was unmapped: lost, foreign, short copies, nudges found blocked. */
    private final long[] closingCounts = new long[4];
    private int[] own = new int[0];
    private long samples;
    private boolean closed;


    /** A capture of this process's threads ({@code settings.pid()} must be this process). */
    public ThreadTimerCapture(PerfCaptureSettings settings) {
        this(settings, new ProcThreadSource(settings.pid()), ringBytesFor(settings, OnlineCpus.list().length));
    }

    ThreadTimerCapture(PerfCaptureSettings settings, ThreadSource threads, long ringBytes) {
        this.settings = settings;
        this.threads = threads;
        this.ringBytes = ringBytes;
        this.sample = new RawSample(settings.stackBytes());
        this.timers = new ThreadTimers(settings.periodNanos(), settings.maxThreads());
    }

    /**
     * A ring that holds {@link #RING_HOLDS_NANOS} of samples with every CPU busy, a power of two between
     * {@link #MIN_RING_BYTES} and {@link #MAX_RING_BYTES}: ordinary memory, not the user's locked memory.
     */
    static long ringBytesFor(PerfCaptureSettings settings, int cpus) {
        double perSecond = Math.max(1, cpus) * 1e9 / Math.max(1, settings.periodNanos());
        double bytes = perSecond * RING_HOLDS_NANOS / 1e9 * (settings.stackBytes() + TimerRing.RECORD_STACK);
        long wanted = (long) Math.min(MAX_RING_BYTES, Math.max(MIN_RING_BYTES, bytes));
        return Long.highestOneBit(wanted - 1) << 1;
    }

    @Override
    public void start(int[] ownThreads) throws PerfCaptureUnavailableException {
        String failure = ThreadTimerLibrary.load();
        if (failure != null) {
            throw new PerfCaptureUnavailableException(failure);
        }
        own = ownThreads.clone();
        Arrays.sort(own);
        long address = ThreadTimerLibrary.Calls.mixflame_timer_install(SIGNAL, ringBytes, settings.periodNanos());
        if (address < 0 && address > -4096) {
            throw new PerfCaptureUnavailableException("the in-thread timer's signal handler could not be installed "
                    + "(errno " + -address + ")");
        }
        ByteBuffer memory = new Pointer(address).getByteBuffer(0, TimerRing.DATA_OFFSET + ringBytes);
        ring = new TimerRing(memory);
        refreshThreads();
        if (timers.size() == 0) {
            close();
            throw new PerfCaptureUnavailableException("no thread of process " + settings.pid()
                    + " accepted a CPU timer" + (timers.refusedCount() == 0 ? "" : " (" + timers.refusedCount()
                    + " refused)"));
        }
    }

    @Override
    public boolean kernelFrames() {
        return false;
    }

    @Override
    public int threadCount() {
        return threads.count();
    }

    @Override
    public void refreshThreads() {
        if (closed) {
            return;
        }
        int[] tids = threads.list().clone();
        if (tids.length == 0) {
            return;
        }
        Arrays.sort(tids);
        timers.refresh(tids, own, settings.stackBytes(), ring);
    }

    /**
     * Every {@link #NUDGE_EVERY_NANOS}: signals the threads whose CPU timer is past its expiry without the kernel
     * having seen it (it checks at its tick, for the thread running then; with many more threads wanting the CPU than
     * there are cores, some run only between ticks). Their handlers sample them when they next run, weighted by the
     * CPU time not yet accounted, and one that finds its thread blocked in a system call leaves it for the next.
     */
    @Override
    public void catchUp() {
        long now = System.nanoTime();
        if (closed || now - lastNudgeNanos < NUDGE_EVERY_NANOS) {
            return;
        }
        lastNudgeNanos = now;
        timers.nudgeOverdue();
    }

    @Override
    public boolean sampling(int tid) {
        return timers.timed(tid);
    }

    /**
     * Gives thread {@code tid} a timer whose samples copy {@code stackBytes}: its timer is made again (the samples
     * already in the ring keep their copies).
     */
    @Override
    public boolean growStack(int tid, int stackBytes, Consumer<RawSample> consumer) {
        int bytes = Math.min(stackBytes, PerfCaptureSettings.MAX_STACK_BYTES) & ~7;
        if (closed || !timers.grow(tid, bytes)) {
            return false;
        }
        sample.reserveStack(bytes);
        return true;
    }

    @Override
    public int stackBytes(int tid) {
        return timers.stackBytes(tid);
    }

    @Override
    public int drain(Consumer<RawSample> consumer) {
        return drain(consumer, ALWAYS);
    }

    /** True: the threads write into a ring of ordinary memory, which keeps what a drain leaves there. */
    @Override
    public boolean holdsBack() {
        return true;
    }

    @Override
    public int drain(Consumer<RawSample> consumer, BooleanSupplier room) {
        TimerRing r = ring;
        if (r == null) {
            return 0;
        }
        reader.consumer = consumer;
        reader.room = room;
        try {
            return r.drain(reader);
        } finally {
            reader.consumer = null;
            reader.room = null;
            if (stacks.pending()) {
                stacks.locate(settings.pid(), placement);
            }
        }
    }

    /** Publishes the stacks the locator found in the threads' region slots. */
    private final class Placement implements StackLocator.Target {
        @Override
        public int slotOf(int tid) {
            return timers.slotToPlace(tid);
        }

        @Override
        public void found(int tid, int slot, long high, long pages) {
            timers.place(tid, slot, high, pages, ring);
        }
    }

    private static final BooleanSupplier ALWAYS = new Always();

    /** A room that never runs out. A class rather than a lambda, which the JVM spins at start-up. */
    private static final class Always implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            return true;
        }
    }

    /** Reads a record into the reused sample. */
    private final class RecordReader implements TimerRing.RecordVisitor {
        Consumer<RawSample> consumer;
        BooleanSupplier room;

        @Override
        public boolean record(ByteBuffer memory, int offset) {
            if (!room.getAsBoolean()) {
                return false;
            }
            RawSample s = sample;
            s.pid = (int) settings.pid();
            s.tid = memory.getInt(offset + TimerRing.RECORD_TID);
            s.time = memory.getLong(offset + TimerRing.RECORD_TIME);
            s.weight = 1 + memory.getInt(offset + TimerRing.RECORD_OVERRUN);
            s.hasRegisters = true;
            int registers = offset + TimerRing.RECORD_REGISTERS;
            long[] sampleRegisters = s.registers;
            for (int slot = 0; slot < sampleRegisters.length; slot++) {
                int at = TimerRecordRegisters.recordOffset(slot);
                sampleRegisters[slot] = at < 0 ? 0 : memory.getLong(registers + at);
            }
            s.ip = s.pc();
            int length = memory.getInt(offset + TimerRing.RECORD_STACK_LENGTH);
            if (length > 0 && memory.getInt(offset + TimerRing.RECORD_SLOT) != 0
                    && memory.getInt(offset + TimerRing.RECORD_IN_PLACE) == 0) {
                stacks.note(s.tid, s.sp(),
                        memory.getLong(offset + TimerRing.RECORD_THREAD_POINTER));
            }
            s.reserveStack(length);
            memory.get(offset + TimerRing.RECORD_STACK, s.stack, 0, length);
            s.stackLength = length;
            s.stackRequested = length;
            s.kernelDepth = 0;
            handlerNanos.recordValue(Math.min(HIGHEST_NANOS,
                    Integer.toUnsignedLong(memory.getInt(offset + TimerRing.RECORD_HANDLER_NANOS))));
            samples++;
            consumer.accept(s);
            return true;
        }
    }

    @Override
    public long samples() {
        return samples;
    }

    /** Synchronized with {@link #close}, which unmaps the ring: the cost note may ask from another thread. */
    @Override
    public synchronized long lost() {
        TimerRing r = ring;
        return r == null ? closingCounts[0] : r.lost();
    }

    /** Threads with a timer now. */
    public int threads() {
        return timers.size();
    }

    @Override
    public synchronized String describe() {
        TimerRing r = ring;
        long foreign = r == null ? closingCounts[1] : r.foreign();
        long shortCopies = r == null ? closingCounts[2] : r.shortCopies();
        long blocked = r == null ? closingCounts[3] : r.nudgesBlocked();
        StringBuilder text = new StringBuilder("in-thread CPU timers: ").append(timers.timed())
                .append(" threads sampled in their own signal handler");
        if (timers.refusedCount() > 0) {
            text.append(", ").append(timers.refusedCount()).append(" refused a timer");
        }
        text.append(", ").append(timers.placed()).append(" of them with stacks copied in place");
        text.append("; ring ").append(ringBytes >> 20).append(" MiB of ordinary memory");
        if (handlerNanos.getTotalCount() > 0) {
            text.append("; in the sampled thread ").append(CostFigures.p50p99(handlerNanos)).append(" per sample");
        }
        if (timers.nudges() > 0) {
            text.append("; ").append(timers.nudges()).append(" threads signalled when their timer's expiry went unseen");
            if (blocked > 0) {
                text.append(" (").append(blocked).append(" found blocked, left for the next)");
            }
        }
        if (foreign > 0) {
            text.append("; ").append(foreign).append(" signals of other senders passed on");
        }
        if (shortCopies > 0) {
            text.append("; ").append(shortCopies).append(" samples without a stack copy");
        }
        return text.toString();
    }

    /**
     * Deletes every timer, then puts the handler that was there before back (dropping signals still pending) and
     * unmaps the ring. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        timers.releaseAll(ring);
        if (ring != null) {
            TimerRing r = ring;
            closingCounts[0] = r.lost();
            closingCounts[1] = r.foreign();
            closingCounts[2] = r.shortCopies();
            closingCounts[3] = r.nudgesBlocked();
            ring = null;
            int result = ThreadTimerLibrary.Calls.mixflame_timer_uninstall(UNINSTALL_WAIT_MILLIS);
            if (result < 0) {
                LOG.warn("the in-thread timer's signal handler could not be removed (errno {})", -result);
            } else if (result == 1) {
                LOG.debug("a signal handler still ran a second after the timers were deleted: the ring is left mapped");
            }
        }
    }
}
