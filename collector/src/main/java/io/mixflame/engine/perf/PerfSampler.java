package io.mixflame.engine.perf;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.HostRegisters;
import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.linux.PerfFeed;
import io.mixflame.engine.linux.ThreadCpuClock;
import io.mixflame.engine.linux.ThreadListingWatch;
import io.mixflame.image.ModuleMap;
import io.mixflame.process.MemoryMapping;
import io.mixflame.process.linux.ProcThreadSelf;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The perf engine's sampler thread: drains the capture's rings through the perf feed ({@link PerfFeed}) at the
 * pacing's rate into the pool's buffers for the walker (a sample is dropped and counted when the pool is empty, never
 * waited for), looks up each sample's labels at once, has the larger stack copies the walker asked for applied,
 * queues the threads it sees first for the names thread, and has the threads taken account of as they come and go.
 * It also notes each sample's stack region as the process maps it now: a thread may have ended and its stack been
 * unmapped by the time a late walk needs the region's bounds.
 * Its own object for the drain's callbacks (a class rather than lambdas: each lambda is a class the JVM spins in the
 * service's start-up).
 */
final class PerfSampler implements Runnable, Consumer<RawSample>, BooleanSupplier {
    private static final Logger LOG = LoggerFactory.getLogger(PerfSampler.class);
    /** How often the thread count is looked at ({@link ThreadListingWatch}). */
    static final long THREAD_POLL_NANOS = 50_000_000L;
    /** How long a stop waits for the walker to take what a ring held back (see {@link #drainAtStop}). */
    private static final long STOP_DRAIN_NANOS = 1_000_000_000L;
    private static final long STOP_DRAIN_PAUSE_NANOS = 1_000_000L;

    private final PerfRun run;
    private final SamplePool pool;
    private final DrainPacing pacing;
    private final StackCopyGrowth growth;
    private final UnwalkedSamples unwalked;
    private final PerfEngineCosts costs;
    /** Threads first seen, for the names thread; null without one. */
    private final NewThreads newThreads;
    private final long startNanos;
    /** Where the threads' stacks lie (the process's mappings), read again as threads start. */
    private final ModuleMap stackRegions;
    /** Takes what threads told as they started ({@link SampleStackBuilder#takeTold}); null where they tell nothing. */
    private SampleStackBuilder toldTo;
    private SampleCapture capture;
    private PerfFeed feed;
    private SampleLabeler labels;
    private Thread walker;
    private Thread namer;
    /** Set while a drain handed samples over, or queued a new thread: who to wake after it. */
    private boolean handedOver;
    private boolean newThreadQueued;
    private volatile long dropped;

    PerfSampler(PerfRun run, SamplePool pool, DrainPacing pacing, StackCopyGrowth growth, UnwalkedSamples unwalked,
                PerfEngineCosts costs, NewThreads newThreads, long startNanos, ModuleMap stackRegions) {
        this.run = run;
        this.pool = pool;
        this.pacing = pacing;
        this.growth = growth;
        this.unwalked = unwalked;
        this.costs = costs;
        this.newThreads = newThreads;
        this.startNanos = startNanos;
        this.stackRegions = stackRegions;
    }

    /**
     * Has the sampler take what threads told as they started and ended (their stacks among it) every
     * {@value #THREAD_POLL_NANOS} ns, and first whenever a stack pointer is in no stack the module map knows: a
     * thread that started since the last take.
     */
    void takeTold(SampleStackBuilder told) {
        toldTo = told;
    }

    /** The threads woken after a drain: the walker, and the names thread (or null); set before it starts. */
    void wakes(Thread walkerThread, Thread namesThread) {
        this.walker = walkerThread;
        this.namer = namesThread;
    }

    /** Samples dropped because the pool was empty. */
    long dropped() {
        return dropped;
    }

    @Override
    public void run() {
        run.samplerStarted(ProcThreadSelf.tid());
        int sliced = PerfFeed.shortSlice();
        LOG.debug("sampler: short slice {}", sliced == 0 ? "granted" : "refused (" + sliced + ")");
        if (!run.awaitOpened()) {
            return;
        }
        capture = run.capture();
        feed = new PerfFeed(capture, this, growth);
        labels = run.labels();
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        long lastPoll = System.nanoTime();
        ThreadListingWatch listing = new ThreadListingWatch(lastPoll);
        try {
            while (run.running() && !run.heap().reached()) {
                LockSupport.parkNanos(pacing.waitNanos());
                long t0 = System.nanoTime();
                long lostBefore = capture.lost();
                int handed = feed.drain(this);
                feed.grow();
                wake();
                pacing.drained(handed, capture.lost() > lostBefore);
                unwalked.lost(capture.lost() - lostBefore);
                if (capture.lost() > lostBefore && LOG.isDebugEnabled()) {
                    LOG.debug("{} samples lost at {} ms, {} handed over, wait {} us", capture.lost() - lostBefore,
                            (t0 - startNanos) / 1_000_000, handed, pacing.waitNanos() / 1000);
                }
                long t1 = System.nanoTime();
                costs.drained(t0, t1);
                if (t1 - lastPoll >= THREAD_POLL_NANOS) {
                    SampleStackBuilder told = toldTo;
                    if (told != null) {
                        // What threads told as they started and ended, taken before its buffer fills (the names
                        // thread takes it too, where there is one).
                        told.takeTold();
                    }
                    capture.catchUp();
                    int count = capture.threadCount();
                    if (listing.changed(count) || listing.stale(t1)) {
                        feed.threadsChanged(null);
                        listing.listed(t1, count);
                    }
                    lastPoll = t1;
                }
            }
            drainAtStop();
        } catch (RuntimeException e) {
            LOG.error("the perf sampler stopped: {}", e.toString());
        } catch (OutOfMemoryError e) {
            run.heap().reach();
            pool.clear();
        } finally {
            run.samplerDone();
            if (run.heap().reached()) {
                // No more samples from the kernel either; the engine's stop closes it again, harmlessly.
                capture.close();
            }
            costs.samplerEnded(cpuClock.nanos());
        }
    }

    /**
     * The last drains, once stopping: what waits in a ring that holds samples back while the walker is behind (the
     * timer engine's, {@link SampleCapture#holdsBack}) is handed over as the walker makes room, for at most
     * {@link #STOP_DRAIN_NANOS}, so that a walker starved while the application ran (many more runnable threads than
     * cores) catches up once it stops; what is left then is handed over as the pool allows, the rest dropped and
     * counted. A capture that holds nothing back has nothing to wait for: one drain.
     */
    private void drainAtStop() {
        long deadline = System.nanoTime() + STOP_DRAIN_NANOS;
        while (capture.holdsBack() && !run.heap().reached()) {
            long lostBefore = capture.lost();
            feed.drain(this);
            unwalked.lost(capture.lost() - lostBefore);
            wake();
            // A drain that ended with room to spare found the ring empty.
            if (pool.hasRoom() || System.nanoTime() - deadline >= 0) {
                break;
            }
            LockSupport.parkNanos(STOP_DRAIN_PAUSE_NANOS);
        }
        long lostBefore = capture.lost();
        feed.drain();
        unwalked.lost(capture.lost() - lostBefore);
        wake();
    }

    /**
     * Wakes the walker once for all the samples of a drain (waking it for each sample, a blocking queue's signal,
     * cost a context switch per sample), and the names thread when a new thread was queued.
     */
    private void wake() {
        if (newThreadQueued) {
            newThreadQueued = false;
            LockSupport.unpark(namer);
        }
        if (handedOver) {
            handedOver = false;
            LockSupport.unpark(walker);
        }
    }

    /** Copies a sample into a pooled buffer for the walker, with its labels at its own time; drops it when none. */
    @Override
    public void accept(RawSample s) {
        if (newThreads != null && newThreads.offerIfNew(s.tid)) {
            newThreadQueued = true;
        }
        CapturedThread copy = pool.take(s.time);
        if (copy == null) {
            dropped++;
            unwalked.dropped(s.tid);
            return;
        }
        s.copyTo(copy);
        if (copy.isKnown(HostRegisters.SP)) {
            // Now, not when walked: a thread that ended meanwhile has its stack unmapped (a map read then would not
            // have it), and the walk checks every frame's sp against these bounds.
            long sp = copy.register(HostRegisters.SP);
            MemoryMapping region = stackRegions.stackRegionContaining(sp);
            SampleStackBuilder told = toldTo;
            if (region == null && told != null && told.takeTold() > 0) {
                region = stackRegions.stackRegionContaining(sp);
            }
            if (region != null) {
                copy.setStackRegion(region.start(), region.end());
            }
        }
        SampleLabeler l = labels;
        if (l != null) {
            // Now, not when walked: a walker that fell behind would find the thread's log moved on.
            try {
                copy.setLabelSet(l.setAt(s.tid, s.time));
            } catch (RuntimeException e) {
                // A log that cannot be read costs this sample its labels, never the sampler its drain.
                LOG.debug("a sample's labels could not be looked up: {}", e.toString());
            }
        }
        pool.handOver(copy);
        handedOver = true;
    }

    /**
     * Whether the walker has room for one more sample: a capture whose ring can hold samples back keeps them there
     * while the walker is behind, rather than having them dropped here.
     */
    @Override
    public boolean getAsBoolean() {
        return pool.hasRoom();
    }
}
