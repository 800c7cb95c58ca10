package io.mixflame.engine.perf;

import io.mixflame.engine.CostNotes;
import io.mixflame.engine.EpochClock;
import io.mixflame.engine.FixedPoint;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.PerfCaptureUnavailableException;
import io.mixflame.capture.perf.PreferredSampleCapture;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.capture.perf.PerfSyscalls;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.capture.timer.ThreadTimerCapture;
import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.HeapExhaustion;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.ReadsPerSample;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.ThreadNameRecorder;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.process.linux.ProcThreadSelf;
import io.mixflame.process.linux.ShortSlice;
import io.mixflame.profile.Frame;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.SampleSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native engine: perf_events samples of every thread (registers and a copy of the stack, taken by the kernel,
 * no signals, no safepoint bias), walked into mixed Java and native stacks; or, as the timer engine
 * ({@link #withThreadTimers}), the same pipeline over samples each thread takes of itself in a signal handler
 * ({@link ThreadTimerCapture}), where perf events are refused. The kernel writes them into one ring
 * buffer per CPU shared by all threads ({@link PerCpuPerfCapture}; a ring per thread where that cannot be had). A
 * sampler thread drains the rings into a bounded pool of sample buffers; a walker thread unwinds and names them into
 * the profile; a names thread takes each thread's name as its first sample is seen, while it lives. When the pool is
 * empty a sample is dropped, never waited for, and counted in the profile as {@code [dropped]}; samples the kernel
 * lost as {@code [lost samples]}. A thread's stack copy starts at the default and grows (to 32, then 64 KiB) when its
 * walks break after reading its stack above the copy: the walker asks, the sampler applies
 * ({@link StackCopyGrowth}, {@link SampleCapture#growStack}).
 */
public final class PerfEngine implements SamplingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(PerfEngine.class);
    private static final int POOL = 128;
    /**
     * The pool's bound in the first {@link CostNotes#WARM_UP_NANOS}. The walker starts cold (its classes loading, its code
     * interpreted, the modules' tables read) while the application's threads and the JIT's compile their own start,
     * and on a machine whose cores they keep busy it gets a fraction of one: at 1 ms on two busy threads it fell
     * some 500 samples behind in its first 400 ms, then caught up within 100 ms. Those samples are kept, up to
     * 16 MB more outside the heap, and walked late rather than dropped; the buffers past {@link #POOL} are let go as
     * they come back after the warm-up.
     */
    private static final int WARM_POOL = POOL + 1024;
    private static final long WALKER_IDLE_NANOS = 50_000_000L;
    /**
     * The sampler's scheduling slice: it runs for well under this at each wake-up, and a short slice lets it run soon
     * after it wakes on a machine whose cores the application's threads keep busy, before the kernel's buffers fill.
     */
    private static final long SAMPLER_SLICE_NANOS = 100_000L;
    private static final long THREAD_POLL_NANOS = 50_000_000L;
    /**
     * Between polls the thread list is read again only when the thread count changed (one stat call) or this long
     * has passed: a thread that ended while another started leaves the count as it was. Listing /proc/PID/task at
     * every poll was a third of the sampler thread's time.
     */
    private static final long FULL_LISTING_NANOS = 1_000_000_000L;

    private final long pid;
    private final PerfSyscalls syscalls;
    /** perf_events' rings, or the in-thread timers' ring ({@link #withThreadTimers}). */
    private final boolean threadTimers;
    private volatile boolean running;
    private SampleCapture capture;
    private LinuxProcessMemory memory;
    /** The names thread's own reader of the process (see {@link #nameRecorder}). */
    private LinuxProcessMemory namesMemory;
    /** Takes threads' names while they live, on a thread of its own; null without a readable JVM or thread roots. */
    private ThreadNameRecorder nameRecorder;
    /** Threads first seen by the sampler, for the names thread; null without {@link #nameRecorder}. */
    private NewThreads newThreads;
    private Thread namer;
    /** Set by the sampler while it drains, when it queued a new thread. */
    private boolean newThreadQueued;
    private volatile int namerTid = -1;
    private SampleStackBuilder stacks;
    /**
     * The labels of the sampled threads, looked up by the sampler as it drains and put into stacks by the walker;
     * null when not recorded.
     */
    private SampleLabeler labels;
    /** The sampler's reader of the sampled process for labels kept there; null when they are not. */
    private LinuxProcessMemory labelsMemory;
    /** Perf samples are stamped on the monotonic clock ({@code PerfEventAttr}). */
    private final EpochClock clock = new EpochClock();
    private Thread sampler;
    private Thread walkerThread;
    /** Captures back from the walker to the sampler, and captured samples from the sampler to the walker. */
    private final HandOffRing<CapturedThread> free = new HandOffRing<>(WARM_POOL);
    private final HandOffRing<CapturedThread> ready = new HandOffRing<>(WARM_POOL);
    /**
     * The sampler's one callback object for every drain (made per drain it would allocate), for the requests for
     * larger copies it applies and for the ended threads it drops. A class rather than lambdas: each lambda is a
     * class the JVM spins in the service's start-up.
     */
    private final SamplerCallbacks callbacks = new SamplerCallbacks();
    private final Consumer<RawSample> handOver = callbacks;
    /** Larger stack copies the walker asked for, applied by the sampler. */
    private final StackCopyGrowth growth = new StackCopyGrowth(PerfCaptureSettings.MAX_STACK_BYTES,
            StackCopyGrowth.DEFAULT_THREADS);
    private final StackCopyGrowth.Applier growStack = callbacks;
    private final IntPredicate sampled = callbacks;
    private final BooleanSupplier room = callbacks;

    /** Time per drain and per sample, and the profiler's threads' CPU: the cost note's figures. */
    private final PerfEngineCosts costs = new PerfEngineCosts(CostNotes.WARM_UP_NANOS);
    private volatile long dropped;
    /** Samples dropped or lost, for the walker to count in the profile. */
    private final UnwalkedSamples unwalked = new UnwalkedSamples();
    /** Set when an allocation of the sampler or the walker failed: both stop, and the pool is let go. */
    private final HeapExhaustion heap = new HeapExhaustion("perf");
    private volatile ReadsPerSample reads;
    /** Capture buffers in use or free: at most {@link #WARM_POOL} in the warm-up, then {@link #POOL}. */
    private final AtomicInteger pooled = new AtomicInteger();
    private int stackBytes;
    /** Set by the sampler thread only, while it drains. */
    private boolean handedOver;
    /** Kernel thread ids of the sampler and the walker, once they run; their samples are counted, not walked. */
    private volatile int samplerTid = -1;
    private volatile int walkerTid = -1;
    /** Counted down by the profiler's threads once their ids are known, before the events open. */
    private CountDownLatch ownKnown = new CountDownLatch(2);
    /** Threads first seen that the names thread may be behind on. */
    private static final int NEW_THREADS = 4096;
    /** How often the names thread reads every Java thread's name (renames, threads it missed). */
    private static final long ALL_NAMES_NANOS = 1_000_000_000L;
    /** Threads whose names the names thread looks over each second at most. */
    private static final int THREADS_NAMED_PER_SECOND = 200;
    /** Counted down once the events are open (or could not be): the sampler and the walker wait for it. */
    private final CountDownLatch opened = new CountDownLatch(1);
    private static final long OWN_THREADS_WAIT_MILLIS = 5_000;
    private final Frame[] ownStack = new Frame[2];
    private long startNanos;

    /** The engine for the process it runs in. */
    public PerfEngine() {
        this(OwnPid.get(), new LinuxPerfSyscalls());
    }

    /** The engine for another process, or with other system calls (tests force refusals through them). */
    public PerfEngine(long pid, PerfSyscalls syscalls) {
        this(pid, syscalls, false);
    }

    private PerfEngine(long pid, PerfSyscalls syscalls, boolean threadTimers) {
        this.pid = pid;
        this.syscalls = syscalls;
        this.threadTimers = threadTimers;
    }

    /**
     * The engine whose samples are taken inside the sampled threads, by a CPU-time timer per thread and a signal
     * handler ({@link ThreadTimerCapture}): neither perf events nor ptrace needed, and no sample waits for a profiler
     * thread to run. This process only.
     */
    public static PerfEngine withThreadTimers() {
        return new PerfEngine(OwnPid.get(), null, true);
    }

    @Override
    public boolean recordsLabels() {
        return true;
    }

    @Override
    public String name() {
        return threadTimers ? "timer" : "perf";
    }

    @Override
    public synchronized void start(SamplingSettings settings, SampleSink target) throws EngineUnavailableException {
        if (settings.event() != ProfilingEvent.CPU) {
            throw new EngineUnavailableException("the perf engine samples CPU time only; event="
                    + settings.event().optionName() + " is not built on it yet");
        }
        PerfCaptureSettings captureSettings = PerfCaptureSettings.defaults(pid, settings.intervalNanos());
        try {
            memory = new LinuxProcessMemory(pid);
            stacks = LinuxSampleStacks.open(pid, memory);
            stacks.recordLines(settings.lines());
            if (settings.threadRoots()) {
                namesMemory = new LinuxProcessMemory(pid);
                nameRecorder = stacks.threadNameRecorder(namesMemory);
                newThreads = nameRecorder == null ? null : new NewThreads(NEW_THREADS);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new EngineUnavailableException("process " + pid + " cannot be read: " + e);
        }
        stackBytes = captureSettings.stackBytes();
        running = true;
        startNanos = System.nanoTime();
        costs.started(startNanos);
        reads = new ReadsPerSample(startNanos, memory.systemReads());
        DrainPacing pacing = new DrainPacing(settings.intervalNanos(), captureSettings.ringDataBytes(),
                captureSettings.stackBytes(), POOL);
        // The profiler's threads start before the events open, so that they inherit none: their own events copy no
        // stack. They wait for the events before they sample or walk.
        sampler = new Thread(new SamplerThread(pacing), "mixflame-perf-sampler");
        walkerThread = new Thread(new WalkerThread(settings, target), "mixflame-perf-walker");
        sampler.setDaemon(true);
        walkerThread.setDaemon(true);
        ownKnown = new CountDownLatch(nameRecorder == null ? 2 : 3);
        sampler.start();
        walkerThread.start();
        if (nameRecorder != null) {
            namer = new Thread(new NamesThread(), "mixflame-perf-names");
            namer.setDaemon(true);
            namer.start();
        }
        int[] own = pid == OwnPid.get() ? ownThreads() : new int[0];
        try {
            capture = openCapture(captureSettings, own);
        } catch (EngineUnavailableException e) {
            abandon();
            throw e;
        }
        if (nameRecorder != null) {
            capture.onThreadNamed(callbacks);
        }
        if (!stacks.namesJava()) {
            LOG.info("no HotSpot JVM could be read in process {}: stacks have native frames only", pid);
        }
        if (settings.labels() != null) {
            // Looked up by the sampler as it drains, beside the walker's reads: a reader of their own.
            labelsMemory = settings.labels().readsMemory() ? new LinuxProcessMemory(pid) : null;
            labels = settings.labels().labeler(labelsMemory);
        }
        opened.countDown();
    }

    /** The kernel ids of the sampler and the walker, once both have started (those known after a bounded wait). */
    private int[] ownThreads() {
        try {
            ownKnown.await(OWN_THREADS_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int[] known = {samplerTid, walkerTid, namerTid};
        int n = 0;
        for (int tid : known) {
            if (tid > 0) {
                known[n++] = tid;
            }
        }
        return Arrays.copyOf(known, n);
    }

    /** The capture {@link PreferredSampleCapture} prefers; the memory reader closed when there is none. */
    private SampleCapture openCapture(PerfCaptureSettings captureSettings, int[] own)
            throws EngineUnavailableException {
        try {
            if (threadTimers) {
                ThreadTimerCapture timers = new ThreadTimerCapture(captureSettings);
                timers.start(own);
                return timers;
            }
            return PreferredSampleCapture.open(captureSettings, syscalls, own);
        } catch (PerfCaptureUnavailableException e) {
            closeMemory();
            throw new EngineUnavailableException(e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            closeMemory();
            throw new EngineUnavailableException("perf_events cannot be used from Java here: " + e);
        }
    }

    /** The events could not be opened: the profiler's threads, waiting for them, end. */
    private void abandon() {
        running = false;
        opened.countDown();
        join(sampler);
        join(walkerThread);
        if (namer != null) {
            join(namer);
        }
    }

    /** Waits for the events; false when the engine was abandoned meanwhile. */
    private boolean awaitOpened() {
        try {
            opened.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return running && capture != null;
    }

    private void sample(DrainPacing pacing) {
        samplerTid = ProcThreadSelf.tid();
        int sliced = ShortSlice.request(SAMPLER_SLICE_NANOS, 0);
        LOG.debug("sampler: short slice {}", sliced == 0 ? "granted" : "refused (" + sliced + ")");
        ownKnown.countDown();
        if (!awaitOpened()) {
            return;
        }
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        long lastPoll = System.nanoTime();
        long lastListing = lastPoll;
        int listedCount = -1;
        try {
            while (running && !heap.reached()) {
                LockSupport.parkNanos(pacing.waitNanos());
                long t0 = System.nanoTime();
                long lostBefore = capture.lost();
                int handed = capture.drain(handOver, room);
                if (growth.hasPending()) {
                    growth.takePending(growStack);
                }
                wakeWalker();
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
                        growth.retain(sampled);
                        listedCount = count;
                        lastListing = t1;
                    }
                    lastPoll = t1;
                }
            }
            long lostBefore = capture.lost();
            capture.drain(handOver);
            unwalked.lost(capture.lost() - lostBefore);
            wakeWalker();
        } catch (RuntimeException e) {
            LOG.error("the perf sampler stopped: {}", e.toString());
        } catch (OutOfMemoryError e) {
            giveWay();
        } finally {
            if (heap.reached()) {
                // No more samples from the kernel either; stop() closes it again, harmlessly, after joining us.
                capture.close();
            }
            costs.samplerEnded(cpuClock.nanos());
        }
    }

    /**
     * Copies a sample into a pooled capture for the walker; drops it when the pool is empty. The pool grows to its
     * bound ({@link #WARM_POOL} in the warm-up, {@link #POOL} after) only as far as the walker falls behind: most
     * processes never need more than a few buffers of 16 KiB. A buffer grows past that only when it first carries a
     * sample of a thread whose copy grew.
     */
    private void handOver(RawSample s) {
        if (newThreads != null && newThreads.offerIfNew(s.tid)) {
            newThreadQueued = true;
        }
        CapturedThread copy = free.poll();
        if (copy == null && pooled.get() < (s.time - startNanos < CostNotes.WARM_UP_NANOS ? WARM_POOL : POOL)) {
            pooled.incrementAndGet();
            copy = CapturedThread.offHeap(stackBytes);
        }
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
        ready.offer(copy);
        handedOver = true;
    }

    /**
     * Wakes the walker once for all the samples of a drain: waking it for each sample (a blocking queue's signal)
     * cost a context switch per sample.
     */
    private void wakeWalker() {
        if (newThreadQueued) {
            newThreadQueued = false;
            LockSupport.unpark(namer);
        }
        if (handedOver) {
            handedOver = false;
            LockSupport.unpark(walkerThread);
        }
    }

    private void walk(SamplingSettings settings, SampleSink target) {
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        // Here rather than in start(): start() runs on the application's thread (premain), which must not wait
        // for symbol tables; samples taken meanwhile wait in the ring buffers and the pool.
        walkerTid = ProcThreadSelf.tid();
        ownKnown.countDown();
        if (!awaitOpened()) {
            return;
        }
        UnwalkedFrames unwalkedFrames = new UnwalkedFrames(settings, target);
        try {
            stacks.warmUp();
            while ((running || !ready.isEmpty()) && !heap.reached()) {
                if (unwalked.pending()) {
                    unwalked.take(unwalkedFrames);
                }
                CapturedThread s = ready.poll();
                if (s == null) {
                    // Woken by the sampler after a drain that handed samples over; the timeout only bounds how
                    // long a stop waits.
                    LockSupport.parkNanos(WALKER_IDLE_NANOS);
                    continue;
                }
                long t0 = System.nanoTime();
                long readsBefore = memory.systemReads();
                boolean cpuTimed = costs.timesCpu(t0);
                long c0 = cpuTimed ? cpuClock.nanos() : 0;
                try {
                    if (s.tid() == samplerTid || s.tid() == walkerTid || s.tid() == namerTid) {
                        addOwn(s, settings, target);
                    } else {
                        int depth = stacks.build(s, settings.threadRoots());
                        if (stacks.copyTooShort()) {
                            growth.request((int) s.tid(), s.stackLength());
                        }
                        Frame[] frames = stacks.frames();
                        if (labels != null) {
                            // The set in force at the sample's own time, looked up by the sampler.
                            depth = labels.label(s.labelSet(), frames, depth, settings.threadRoots());
                            frames = labels.frames();
                        }
                        stacks.renameRoots(target);
                        target.add(frames, depth, s.weight(), s.weight() * settings.intervalNanos(),
                                clock.epochNanos(s.time()));
                    }
                } catch (RuntimeException e) {
                    LOG.debug("a sample could not be walked: {}", e.toString());
                } finally {
                    if (costs.warm(t0) && pooled.get() > POOL) {
                        pooled.decrementAndGet(); // the warm-up's buffers go back to the system
                    } else {
                        free.offer(s);
                    }
                }
                long c1 = cpuTimed ? cpuClock.nanos() : 0;
                costs.walked(t0, System.nanoTime(), cpuTimed, c0, c1);
                reads.sampled(t0, memory.systemReads() - readsBefore);
            }
            unwalked.take(unwalkedFrames);
        } catch (OutOfMemoryError e) {
            giveWay();
        } finally {
            costs.walkerEnded(cpuClock.nanos());
        }
    }

    /**
     * The names thread: names each thread the sampler saw for the first time, at once, and every thread of the JVM
     * every second (every five for a thousand threads); on a thread of its own, so that neither the sampler (whose drains must stay
     * short, or the kernel's buffers fill on a machine whose cores the application keeps busy) nor the walker (which
     * may be seconds behind) waits for it, and so that names are taken while their threads live.
     */
    private void recordNames() {
        namerTid = ProcThreadSelf.tid();
        ownKnown.countDown();
        if (!awaitOpened()) {
            return;
        }
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        long lastAll = System.nanoTime() - ALL_NAMES_NANOS;
        long overflowedBefore = 0;
        int[] tids = new int[NEW_THREADS];
        int[] tries = new int[NEW_THREADS];
        int waiting = 0;
        try {
            while (running && !heap.reached()) {
                int count = waiting;
                int tid;
                while (count < tids.length && (tid = newThreads.poll()) > 0) {
                    tids[count] = tid;
                    tries[count++] = 0;
                }
                waiting = count == 0 ? 0 : nameRecorder.recordNew(tids, count, tries);
                long now = System.nanoTime();
                long overflowed = newThreads.overflowed();
                // Every second, every few seconds for a thousand threads: the JVM's list costs reads per thread.
                long every = ALL_NAMES_NANOS * Math.max(1, capture.threadCount() / THREADS_NAMED_PER_SECOND);
                if (now - lastAll >= every || overflowed != overflowedBefore) {
                    nameRecorder.recordAll();
                    lastAll = now;
                    overflowedBefore = overflowed;
                }
                LockSupport.parkNanos(THREAD_POLL_NANOS);
            }
        } catch (RuntimeException e) {
            LOG.debug("the names thread stopped: {}", e.toString());
        } catch (OutOfMemoryError e) {
            giveWay();
        } finally {
            costs.namesEnded(cpuClock.nanos());
        }
    }

    /**
     * A sample of the profiler itself: counted, so that its CPU shows in the profile, but not walked — walking the
     * walker was a twentieth of its work on a one-thread workload, to show its own code.
     */
    private void addOwn(CapturedThread s, SamplingSettings settings, SampleSink target) {
        int depth = 0;
        if (settings.threadRoots()) {
            ownStack[depth++] = stacks.threadFrame((int) s.tid());
        }
        ownStack[depth++] = Frame.PROFILER;
        stacks.renameRoots(target);
        target.add(ownStack, depth, s.weight(), s.weight() * settings.intervalNanos(), clock.epochNanos(s.time()));
    }

    @Override
    public void stop() {
        Thread s;
        Thread w;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            s = sampler;
            w = walkerThread;
        }
        join(s);
        join(w);
        if (namer != null) {
            join(namer);
        }
        synchronized (this) {
            capture.close();
            closeMemory();
        }
    }

    /** The heap is exhausted: stop both threads and let the captures go, so that the application gets the room. */
    private void giveWay() {
        heap.reach();
        ready.clear();
        free.clear();
    }

    private void closeMemory() {
        memory.close();
        if (labelsMemory != null) {
            labelsMemory.close();
        }
        if (namesMemory != null) {
            namesMemory.close();
        }
    }

    private static void join(Thread t) {
        try {
            t.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public List<NativeModule> modules() {
        SampleStackBuilder s = stacks;
        return s == null ? List.of() : s.touchedModules();
    }

    /** Adds samples taken but not walked to the profile: under their thread, or alone, marked as such. */
    private final class UnwalkedFrames implements UnwalkedSamples.Visitor {
        private final SamplingSettings settings;
        private final SampleSink target;
        private final Frame[] frames = new Frame[2];

        UnwalkedFrames(SamplingSettings settings, SampleSink target) {
            this.settings = settings;
            this.target = target;
        }

        @Override
        public void unwalked(int tid, long count, boolean lost) {
            int depth = 0;
            if (settings.threadRoots() && tid > 0) {
                frames[depth++] = stacks.threadFrame(tid);
            }
            frames[depth++] = lost ? Frame.LOST : Frame.DROPPED;
            stacks.renameRoots(target);
            target.add(frames, depth, count, count * settings.intervalNanos(), clock.epochNanos(System.nanoTime()));
        }
    }

    private final class SamplerCallbacks implements Consumer<RawSample>, StackCopyGrowth.Applier, IntPredicate,
            SampleCapture.ThreadNameListener, BooleanSupplier {
        /**
         * Whether the walker has room for one more sample: a capture whose ring can hold samples back keeps them there
         * while the walker is behind, rather than having them dropped here.
         */
        @Override
        public boolean getAsBoolean() {
            return !free.isEmpty() || pooled.get() < (System.nanoTime() - startNanos < CostNotes.WARM_UP_NANOS ? WARM_POOL : POOL);
        }

        @Override
        public void named(int tid, String name) {
            nameRecorder.kernelNamed(tid, name);
        }

        @Override
        public void accept(RawSample s) {
            handOver(s);
        }

        @Override
        public void apply(int tid, int bytes) {
            capture.growStack(tid, bytes, handOver);
        }

        @Override
        public boolean test(int tid) {
            return capture.sampling(tid);
        }
    }

    /** The sampler thread's body: drains the kernel's rings at the pacing's rate. */
    private final class SamplerThread implements Runnable {
        private final DrainPacing pacing;

        SamplerThread(DrainPacing pacing) {
            this.pacing = pacing;
        }

        @Override
        public void run() {
            sample(pacing);
        }
    }

    /** The walker thread's body: walks the samples handed over into the profile. */
    private final class WalkerThread implements Runnable {
        private final SamplingSettings settings;
        private final SampleSink target;

        WalkerThread(SamplingSettings settings, SampleSink target) {
            this.settings = settings;
            this.target = target;
        }

        @Override
        public void run() {
            walk(settings, target);
        }
    }

    /** The names thread's body. */
    private final class NamesThread implements Runnable {
        @Override
        public void run() {
            recordNames();
        }
    }

    @Override
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>();
        long samples = capture == null ? 0 : capture.samples();
        long lost = capture == null ? 0 : capture.lost();
        notes.add(costs.summary(samples, lost, dropped));
        SampleCapture c = capture;
        if (c != null) {
            notes.add(c.describe());
        }
        ReadsPerSample r = reads;
        String read = r == null ? "" : r.describe(memory.systemReads());
        if (!read.isEmpty()) {
            notes.add(read);
        }
        SampleLabeler l = labels;
        if (l != null && l.unknown() > 0) {
            notes.add(l.unknown() + " samples looked up after their thread's label log had moved on: [labels unknown]");
        }
        LinuxProcessMemory lm = labelsMemory;
        if (lm != null && samples > 0) {
            notes.add(lm.systemReads() + " reads of the label log, " + FixedPoint.format((double) lm.systemReads()
                    / samples, 2) + " per sample");
        }
        if (heap.reached()) {
            notes.add("profiling stopped early: the Java heap was exhausted, and the profiler gave way");
        }
        return notes;
    }
}
