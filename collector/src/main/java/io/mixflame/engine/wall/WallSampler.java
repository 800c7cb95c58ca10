package io.mixflame.engine.wall;

import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.PerfCaptureUnavailableException;
import io.mixflame.capture.perf.PerfSyscalls;
import io.mixflame.capture.perf.PreferredSampleCapture;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.linux.PerfFeed;
import io.mixflame.engine.SampleEmitter;
import io.mixflame.engine.linux.ThreadCpuClock;
import io.mixflame.engine.linux.ThreadListingWatch;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.process.linux.ProcThreadSelf;
import io.mixflame.process.linux.ProcThreadSource;
import io.mixflame.profile.SampleSink;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wall engine's sampler thread: opens the running threads' capture and drains it through the perf feed
 * ({@link PerfFeed}) into their latest samples, takes the ticks at fixed deadlines ({@link WallTick}), and follows the
 * process's threads as they come and go. Larger stack copies for running threads whose walks broke above their copy
 * are asked for and applied on this thread, as it both walks and owns the capture.
 */
final class WallSampler implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(WallSampler.class);
    /** How often the thread count is looked at, once the threads were listed ({@link ThreadListingWatch}). */
    private static final long THREAD_POLL_NANOS = 100_000_000L;
    /**
     * Events sorted at once: a pass's switches and samples, or a part of them after a long stall. 400 busy threads on 2
     * cores wrote about 4 000 records a second, and the relay thread was kept off a core for up to 2 s, so a drain may
     * bring 8 000 or more; a buffer filled with none before the time every CPU was read up to is applied as drained,
     * out of order across CPUs (with 8 192, the workers' running share came out 10 points high in one such run). About
     * 1.1 MB of heap, made once.
     */
    private static final int SWITCH_EVENTS = 32768;
    /** A tick this many intervals past its deadline is late. */
    private static final int LATE_TICK_INTERVALS = 2;
    /** The last ticks looked at (a bit each), and how many of them late (or crowded) make the sampler behind. */
    private static final int RECENT_MASK = (1 << 5) - 1;
    private static final int BEHIND_TICKS = 3;
    /** A tick this many intervals late makes it behind at once, after the start. */
    private static final int FAR_TICK_INTERVALS = 5;
    /** How long after the ticks began the start's own stalls may last. */
    private static final long SETTLED_NANOS = 1_000_000_000L;
    /** Batches of events a pass drains at most, the rest left in the rings for the next. */
    private static final int MAX_BATCHES = 64;
    /** How long the last pass waits for the records up to the end (the relay thread's pass, on a busy machine). */
    private static final long FINAL_WAIT_NANOS = 1_000_000_000L;

    private final long pid;
    private final PerfSyscalls syscalls;
    private final PerfCaptureSettings captureSettings;
    private final SamplingSettings settings;
    private final SampleSink target;
    private final SampleStackBuilder stacks;
    private final LinuxProcessMemory memory;
    private final BlockedThreadCapture blocked;
    private final EnumSet<ThreadState> states;
    private final WallCosts costs;
    private final ThreadSource threadSource;
    private volatile boolean running = true;
    /** Guarded by this: opened by the sampler, closed by the engine's stop. */
    private SampleCapture capture;

    WallSampler(long pid, PerfSyscalls syscalls, PerfCaptureSettings captureSettings, SamplingSettings settings,
                SampleSink target, SampleStackBuilder stacks, LinuxProcessMemory memory, BlockedThreadCapture blocked,
                EnumSet<ThreadState> states, WallCosts costs) {
        this.pid = pid;
        this.syscalls = syscalls;
        this.captureSettings = captureSettings;
        this.settings = settings;
        this.target = target;
        this.stacks = stacks;
        this.memory = memory;
        this.blocked = blocked;
        this.states = states;
        this.costs = costs;
        this.threadSource = new ProcThreadSource(pid);
    }

    boolean running() {
        return running;
    }

    /** Ends the ticks; the capture stays open until {@link #closeCapture}. */
    synchronized void stop() {
        running = false;
    }

    /** Closes the capture, once the sampler has ended. */
    synchronized void closeCapture() {
        if (capture != null) {
            capture.close();
        }
    }

    @Override
    public void run() {
        int samplerTid = ProcThreadSelf.tid();
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        WallThreads threads = new WallThreads(pid);
        RunningSamples latest = new RunningSamples(threads, settings.intervalNanos());
        SampleCapture opened = openCapture(samplerTid, latest);
        StackCopyGrowth growth = new StackCopyGrowth(PerfCaptureSettings.MAX_STACK_BYTES,
                StackCopyGrowth.DEFAULT_THREADS);
        if (opened != null) {
            opened.drainUpToNow();
        }
        PerfFeed feed = opened == null ? null : new PerfFeed(opened, latest, growth);
        // On the sampler's thread, not in start(): the application's thread (premain) must not wait for it.
        stacks.warmUp();
        SampleLabeler labels = settings.labels() == null ? null : settings.labels().labeler(memory);
        SampleEmitter emitter = new SampleEmitter(stacks, target, settings.threadRoots(), settings.intervalNanos(),
                growth, labels);
        RunEvidence evidence = new RunEvidence(opened);
        ThreadVisit visit = new ThreadVisit(emitter, blocked, latest, evidence, states, costs);
        WallTick tick = new WallTick(threads, latest, evidence, visit, emitter, settings.intervalNanos(), costs);
        ThreadListingWatch listing = new ThreadListingWatch(System.nanoTime() - ThreadListingWatch.FULL_LISTING_NANOS);
        long lastPoll = 0;
        PerfFeed.shortSlice();
        long interval = settings.intervalNanos();
        TickWeight weights = new TickWeight(interval, System.nanoTime());
        // Ticks at fixed deadlines, not an interval after the last tick's end: a tick's own work must not stretch
        // the period (with a thousand threads, a few milliseconds a tick would cost a tenth of the ticks at 20 ms).
        long tickingSince = System.nanoTime();
        costs.ticking(tickingSince);
        long deadline = tickingSince + interval;
        int lateTicks = 0;
        int crowdedTicks = 0;
        long lastTick = tickingSince;
        // Where the capture reports every switch with its time, the threads' states are followed from those records,
        // and once this thread falls behind its ticks they are counted from them, however late it runs; until then
        // (and without them) each tick visits the threads that moved.
        SwitchLedger ledger = null;
        if (opened != null && evidence.reportsSwitches()) {
            ledger = new SwitchLedger(threads, latest, visit, emitter, states, costs, interval, tickingSince);
            latest.recordEvents(new SwitchEvents(SWITCH_EVENTS));
        }
        try {
            while (running) {
                long wait = deadline - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                    continue;
                }
                long now = System.nanoTime();
                long due = deadline;
                // Deadlines already passed are not made up for: the late tick counts their intervals.
                deadline += (-wait / interval + 1) * interval;
                if (ledger != null && !ledger.counting()) {
                    long lateness = now - due;
                    lateTicks = (lateTicks << 1 | (lateness > LATE_TICK_INTERVALS * interval ? 1 : 0)) & RECENT_MASK;
                    // One tick far behind is enough once the start's own stall (the symbol tables) is over.
                    boolean far = lateness > FAR_TICK_INTERVALS * interval && now - tickingSince > SETTLED_NANOS;
                    if (Integer.bitCount(lateTicks) >= BEHIND_TICKS || far
                            || Integer.bitCount(crowdedTicks) >= BEHIND_TICKS) {
                        // Most of the last ticks late (a core seldom had, safepoints slow to reach), not one stall
                        // (the start's symbol tables, a collection), or most of them finding more threads moved
                        // than a tick visits (hundreds that wake and wait many times a tick): the ticks are counted
                        // from the kernel's records from the last tick on, this stall's included, however late this
                        // thread runs from now. A visit that stands for the intervals its thread was owed since it
                        // moved finds it running more often than it ran (it moved because it woke), so visits that
                        // fall behind would count the busiest threads as running too long.
                        ledger.startCounting(lastTick);
                    }
                }
                // Listed before the drain: a thread missing from the listing ended before it, so its last switch
                // is among the records drained next, and counted before the thread is forgotten.
                int[] listed = null;
                if (now - lastPoll >= THREAD_POLL_NANOS
                        && (listing.stale(now) || listing.changed(threadSource.count()))) {
                    listed = threadSource.list();
                }
                if (ledger != null) {
                    drainInto(ledger, feed, latest);
                } else if (feed != null) {
                    feed.drain();
                }
                if (feed != null) {
                    feed.grow();
                }
                if (listed != null) {
                    // Listed once for both the /proc readers and the perf events.
                    Set<Integer> all = threads.refresh(listed, samplerTid, emitter, latest, ledger);
                    if (all != null) {
                        listing.listed(System.nanoTime(), all.size());
                    }
                    if (feed != null) {
                        feed.threadsChanged(all);
                    }
                    stacks.retryProvisionalNames();
                    lastPoll = now;
                }
                if (ledger != null && ledger.counting()) {
                    // A quarter of the interval for visits, from when the pass began: a pass that woke late still
                    // reads the waits it found. The states are counted up to where the records are complete: what
                    // the relay has not moved yet (it too waits for a core) would change them.
                    ledger.pass(Math.min(now, opened.recordsCompleteAt()), latest.takeSwitchesLost(),
                            System.nanoTime() + interval / 4);
                } else {
                    int moved = tick.tick(now, due, weights.next(now));
                    crowdedTicks = (crowdedTicks << 1 | (moved > WallTick.MAX_VISITS_PER_TICK ? 1 : 0)) & RECENT_MASK;
                    lastTick = now;
                }
            }
            if (ledger != null && ledger.counting()) {
                long end = System.nanoTime();
                // Listed again first, as each pass is: a sampler far behind stops long after threads that ended
                // (an application's workers, before it exits), which are not counted up to the end in their last
                // state.
                int[] listed = threadSource.list();
                // The records up to the end, which a relay without a core may hold back a while.
                opened.awaitRecords(FINAL_WAIT_NANOS);
                drainInto(ledger, feed, latest);
                threads.refresh(listed, samplerTid, emitter, latest, ledger);
                ledger.pass(Math.min(end, opened.recordsCompleteAt()), latest.takeSwitchesLost(),
                        System.nanoTime() + interval / 4);
            }
        } catch (RuntimeException e) {
            LOG.error("the wall-clock sampler stopped: {}", e.toString());
        } finally {
            costs.stopped(System.nanoTime(), cpuClock.nanos());
            if (opened != null) {
                costs.capture(opened.describe());
            }
            if (ledger != null) {
                ledger.flushAll();
            }
            threads.clear(emitter);
        }
    }

    /**
     * Drains the capture into the ledger: the events in time order, a bounded batch at a time (the rest waiting in
     * the rings), for at most {@link #MAX_BATCHES} batches a pass.
     */
    private static void drainInto(SwitchLedger ledger, PerfFeed feed, RunningSamples latest) {
        for (int i = 0; i < MAX_BATCHES; i++) {
            feed.drain(latest);
            boolean full = !latest.getAsBoolean();
            ledger.apply(latest.events(), feed.capture().recordsCompleteAt());
            if (!full) {
                return;
            }
        }
    }

    /**
     * Opens the running threads' capture, from the sampler's thread, which it then samples without a stack: the
     * application's thread (premain) does not wait for it either. Null when perf events are refused: running threads
     * are then sampled as {@code [running]}, unwalked.
     */
    private SampleCapture openCapture(int samplerTid, RunningSamples switches) {
        SampleCapture opened;
        try {
            opened = PreferredSampleCapture.open(captureSettings, syscalls,
                    samplerTid > 0 && pid == OwnPid.get() ? new int[] {samplerTid} : new int[0], switches);
        } catch (PerfCaptureUnavailableException | RuntimeException | LinkageError e) {
            LOG.warn("running threads' stacks are not sampled ({}); they show as [running]", e.getMessage());
            return null;
        }
        synchronized (this) {
            if (!running) {
                opened.close();
                return null;
            }
            capture = opened;
            return opened;
        }
    }
}
