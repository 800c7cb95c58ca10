package io.mixflame.engine.perf;

import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.PerfCaptureUnavailableException;
import io.mixflame.capture.perf.PerfSyscalls;
import io.mixflame.capture.perf.PreferredSampleCapture;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.capture.timer.ThreadTimerCapture;
import io.mixflame.engine.CostNotes;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.FixedPoint;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.ReadsPerSample;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.ThreadLifeNames;
import io.mixflame.engine.ThreadNameRecorder;
import io.mixflame.engine.linux.LinuxSampleStacks;
import io.mixflame.image.SnapshotModuleMap;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.SampleSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native engine: perf_events samples of every thread (registers and a copy of the stack, taken by the kernel,
 * no signals, no safepoint bias), walked into mixed Java and native stacks; or, as the timer engine
 * ({@link #withThreadTimers}), the same pipeline over samples each thread takes of itself in a signal handler
 * ({@link ThreadTimerCapture}), where perf events are refused. The kernel writes them into one ring
 * buffer per CPU shared by all threads ({@code PerCpuPerfCapture}; a ring per thread where that cannot be had). A
 * sampler thread ({@link PerfSampler}) drains the rings into a bounded pool of sample buffers ({@link SamplePool}); a
 * walker thread ({@link PerfWalker}) unwinds and names them into the profile; a names thread ({@link PerfNamer}) takes
 * each thread's name as its first sample is seen, while it lives; they share only what {@link PerfRun} holds. This
 * class starts, stops and reports them. When the pool is
 * empty a sample is dropped, never waited for, and counted in the profile as {@code [dropped]}; samples the kernel
 * lost as {@code [lost samples]}. A thread's stack copy starts at the default and grows (to 32, then 64 KiB) when its
 * walks break after reading its stack above the copy: the walker asks, the sampler applies
 * ({@link StackCopyGrowth}, {@link SampleCapture#growStack}).
 */
public final class PerfEngine implements SamplingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(PerfEngine.class);

    private final long pid;
    private final PerfSyscalls syscalls;
    /** perf_events' rings, or the in-thread timers' ring ({@link #withThreadTimers}). */
    private final boolean threadTimers;
    /** What the profiler's threads share of the run; null before the first start. */
    private PerfRun run;
    private SampleCapture capture;
    /** The walker's reader of the process. */
    private LinuxProcessMemory memory;
    /** The names thread's own reader of the process. */
    private LinuxProcessMemory namesMemory;
    /** The sampler's reader of the sampled process for labels kept there; null when they are not. */
    private LinuxProcessMemory labelsMemory;
    private SampleLabeler labels;
    private SampleStackBuilder stacks;
    /** The names threads tell as they start and end; null where they are not heard. */
    private ThreadLifeNames told;
    private SamplePool pool;
    private PerfSampler samplerBody;
    private Thread sampler;
    private Thread walker;
    private Thread namer;
    /** Time per drain and per sample, and the profiler's threads' CPU: the cost note's figures. */
    private final PerfEngineCosts costs = new PerfEngineCosts(CostNotes.WARM_UP_NANOS);
    private volatile ReadsPerSample reads;

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
        ThreadNameRecorder nameRecorder = null;
        try {
            memory = new LinuxProcessMemory(pid);
            stacks = LinuxSampleStacks.open(pid, memory);
            stacks.recordLines(settings.lines());
            stacks.keepCodeHistory(true);
            if (stacks.modules() instanceof SnapshotModuleMap maps) {
                maps.keepUnmappedStacks(true);
            }
            if (settings.threadRoots()) {
                namesMemory = new LinuxProcessMemory(pid);
                nameRecorder = stacks.threadNameRecorder(namesMemory);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new EngineUnavailableException("process " + pid + " cannot be read: " + e);
        }
        // Threads tell their names and their stacks as they start and end: heard in the profiler's own process even
        // without thread roots, for the stacks of threads that started after the maps were read.
        told = LinuxSampleStacks.hearThreadLife(stacks, pid);
        long startNanos = System.nanoTime();
        costs.started(startNanos);
        reads = new ReadsPerSample(startNanos, memory.systemReads());
        run = new PerfRun(nameRecorder == null ? 2 : 3);
        pool = new SamplePool(captureSettings.stackBytes(), startNanos,
                Runtime.getRuntime().availableProcessors() * (1_000_000_000L / Math.max(1, settings.intervalNanos())));
        StackCopyGrowth growth = new StackCopyGrowth(PerfCaptureSettings.MAX_STACK_BYTES,
                StackCopyGrowth.DEFAULT_THREADS);
        UnwalkedSamples unwalked = new UnwalkedSamples();
        NewThreads newThreads = nameRecorder == null ? null : new NewThreads(PerfNamer.NEW_THREADS);
        DrainPacing pacing = new DrainPacing(settings.intervalNanos(), captureSettings.ringDataBytes(),
                captureSettings.stackBytes(), SamplePool.POOL);
        samplerBody = new PerfSampler(run, pool, pacing, growth, unwalked, costs, newThreads, startNanos,
                stacks.modules());
        if (told != null) {
            samplerBody.takeTold(stacks);
        }
        PerfNamer namerBody = nameRecorder == null ? null : new PerfNamer(run, nameRecorder, newThreads, costs);
        // The profiler's threads start before the events open, so that they inherit none: their own events copy no
        // stack. They wait for the capture before they sample, walk or name.
        sampler = daemon(samplerBody, "mixflame-perf-sampler");
        walker = daemon(new PerfWalker(run, pool, settings, target, stacks, memory, growth, unwalked, costs, reads),
                "mixflame-perf-walker");
        namer = namerBody == null ? null : daemon(namerBody, "mixflame-perf-names");
        samplerBody.wakes(walker, namer);
        sampler.start();
        walker.start();
        if (namer != null) {
            namer.start();
        }
        int[] own = pid == OwnPid.get() ? run.ownThreads() : new int[0];
        try {
            capture = openCapture(captureSettings, own);
        } catch (EngineUnavailableException e) {
            abandon();
            throw e;
        }
        if (namerBody != null) {
            capture.onThreadNamed(namerBody);
        }
        // Censuses of the code cache taken while samples wait, by a thread no safepoint stops (in the profiler's own
        // process): a late walk then names code the JIT freed while the walker stood still.
        String noAhead = stacks.keepCodeHistoryAhead(capture.waitingRings());
        if (noAhead != null) {
            LOG.debug("the code cache's censuses are taken by the walker: {}", noAhead);
        }
        if (!stacks.namesJava()) {
            LOG.info("no HotSpot JVM could be read in process {}: stacks have native frames only", pid);
        }
        if (settings.labels() != null) {
            // Looked up by the sampler as it drains, beside the walker's reads: a reader of their own.
            labelsMemory = settings.labels().readsMemory() ? new LinuxProcessMemory(pid) : null;
            labels = settings.labels().labeler(labelsMemory);
        }
        run.opened(capture, labels);
    }

    private static Thread daemon(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
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

    /** The capture could not be opened: the profiler's threads, waiting for it, end. */
    private void abandon() {
        run.abandon();
        join(sampler);
        join(walker);
        if (namer != null) {
            join(namer);
        }
        stopHearing();
    }

    private void stopHearing() {
        if (told != null) {
            told.close();
        }
    }

    @Override
    public void stop() {
        synchronized (this) {
            if (run == null || !run.running()) {
                return;
            }
            run.stop();
        }
        join(sampler);
        join(walker);
        if (namer != null) {
            join(namer);
        }
        stopHearing();
        // Before the capture closes: the censuses' thread watches its rings. Its log is freed only once no walker
        // can read it (a walker that outlived its join keeps it).
        stacks.stopCodeHistoryAhead(!walker.isAlive());
        synchronized (this) {
            capture.close();
            closeMemory();
            if (run.heap().reached()) {
                // The heap is exhausted: the buffers go, so that the application gets the room.
                pool.clear();
            }
        }
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

    @Override
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>();
        SampleCapture c = capture;
        long samples = c == null ? 0 : c.samples();
        long lost = c == null ? 0 : c.lost();
        PerfSampler body = samplerBody;
        notes.add(costs.summary(samples, lost, body == null ? 0 : body.dropped()));
        if (c != null) {
            notes.add(c.describe());
        }
        ReadsPerSample r = reads;
        String read = r == null ? "" : r.describe(memory.systemReads());
        if (!read.isEmpty()) {
            notes.add(read);
        }
        SampleStackBuilder sb = stacks;
        String history = sb == null ? null : sb.codeHistoryNote();
        if (history != null) {
            notes.add(history);
        }
        String toldNote = LinuxSampleStacks.toldNote(told);
        if (toldNote != null) {
            notes.add(toldNote);
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
        if (run != null && run.heap().reached()) {
            notes.add("profiling stopped early: the Java heap was exhausted, and the profiler gave way");
        }
        return notes;
    }
}
