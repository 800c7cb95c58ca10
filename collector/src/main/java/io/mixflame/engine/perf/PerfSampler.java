package io.mixflame.engine.perf;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.process.linux.ProcThreadSelf;
import io.mixflame.process.linux.ShortSlice;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The perf engine's sampler thread: drains the capture's rings at the pacing's rate into the pool's buffers for the
 * walker (a sample is dropped and counted when the pool is empty, never waited for), looks up each sample's labels at
 * once, applies the larger stack copies the walker asked for, queues the threads it sees first for the names thread,
 * and lists the threads again as they come and go. Its own object for every callback of a drain (a class rather than
 * lambdas: each lambda is a class the JVM spins in the service's start-up).
 */
final class PerfSampler implements Runnable, Consumer<RawSample>, StackCopyGrowth.Applier, IntPredicate,
        BooleanSupplier {
    private static final Logger LOG = LoggerFactory.getLogger(PerfSampler.class);
    /**
     * The sampler's scheduling slice: it runs for well under this at each wake-up, and a short slice lets it run soon
     * after it wakes on a machine whose cores the application's threads keep busy, before the kernel's buffers fill.
     */
    private static final long SLICE_NANOS = 100_000L;
    static final long THREAD_POLL_NANOS = 50_000_000L;
    /**
     * Between polls the thread list is read again only when the thread count changed (one stat call) or this long
     * has passed: a thread that ended while another started leaves the count as it was. Listing /proc/PID/task at
     * every poll was a third of the sampler thread's time.
     */
    private static final long FULL_LISTING_NANOS = 1_000_000_000L;
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
    private SampleCapture capture;
    private SampleLabeler labels;
    private Thread walker;
    private Thread namer;
    /** Set while a drain handed samples over, or queued a new thread: who to wake after it. */
    private boolean handedOver;
    private boolean newThreadQueued;
    private volatile long dropped;

    PerfSampler(PerfRun run, SamplePool pool, DrainPacing pacing, StackCopyGrowth growth, UnwalkedSamples unwalked,
                PerfEngineCosts costs, NewThreads newThreads, long startNanos) {
        this.run = run;
        this.pool = pool;
        this.pacing = pacing;
        this.growth = growth;
        this.unwalked = unwalked;
        this.costs = costs;
        this.newThreads = newThreads;
        this.startNanos = startNanos;
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
        int sliced = ShortSlice.request(SLICE_NANOS, 0);
        LOG.debug("sampler: short slice {}", sliced == 0 ? "granted" : "refused (" + sliced + ")");
        if (!run.awaitOpened()) {
            return;
        }
        capture = run.capture();
        labels = run.labels();
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        long lastPoll = System.nanoTime();
        long lastListing = lastPoll;
        int listedCount = -1;
        try {
            while (run.running() && !run.heap().reached()) {
                LockSupport.parkNanos(pacing.waitNanos());
                long t0 = System.nanoTime();
                long lostBefore = capture.lost();
                int handed = capture.drain(this, this);
                if (growth.hasPending()) {
                    growth.takePending(this);
                }
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
                    capture.catchUp();
                    int count = capture.threadCount();
                    if (count < 0 || count != listedCount || t1 - lastListing >= FULL_LISTING_NANOS) {
                        capture.refreshThreads();
                        growth.retain(this);
                        listedCount = count;
                        lastListing = t1;
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
     * timer engine's) is handed over as the walker makes room, for at most {@link #STOP_DRAIN_NANOS}, so that a walker
     * starved while the application ran (many more runnable threads than cores) catches up once it stops; what is
     * left then is handed over as the pool allows, the rest dropped and counted.
     */
    private void drainAtStop() {
        long deadline = System.nanoTime() + STOP_DRAIN_NANOS;
        while (!run.heap().reached()) {
            long lostBefore = capture.lost();
            capture.drain(this, this);
            unwalked.lost(capture.lost() - lostBefore);
            wake();
            // A drain that ended with room to spare found the ring empty.
            if (pool.hasRoom() || System.nanoTime() - deadline >= 0) {
                break;
            }
            LockSupport.parkNanos(STOP_DRAIN_PAUSE_NANOS);
        }
        long lostBefore = capture.lost();
        capture.drain(this);
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

    /** Applies a larger stack copy the walker asked for. */
    @Override
    public void apply(int tid, int bytes) {
        capture.growStack(tid, bytes, this);
    }

    /** Whether thread {@code tid} is still sampled (the growth table keeps only those). */
    @Override
    public boolean test(int tid) {
        return capture.sampling(tid);
    }
}
