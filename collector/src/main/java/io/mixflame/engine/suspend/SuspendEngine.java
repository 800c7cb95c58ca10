package io.mixflame.engine.suspend;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.ThreadCapture;
import io.mixflame.capture.ThreadCaptureException;
import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.engine.CostNotes;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.EpochClock;
import io.mixflame.engine.FixedPoint;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.ReadsPerSample;
import io.mixflame.engine.SampleEmitter;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.TickRate;
import io.mixflame.platform.TargetProcess;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ThreadSource;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.SampleSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples another process by stopping its threads, one at a time, at every tick: the capture of its system (on
 * Windows SuspendThread, GetThreadContext, a copy of the top of the stack, ResumeThread) and then, with the thread
 * running again, the same walk and naming as every other engine. {@code event=cpu} samples the threads that used at
 * least a whole interval of CPU since they were last counted, each sample counting the whole intervals used and
 * weighing that many intervals (the rest is carried to the thread's next sample, and threads that used none for a
 * while are looked at less often: {@link CpuTimes}), so that counts, as well as weights, follow the CPU each thread
 * used; {@code event=wall} samples every thread, each counted once and weighted by the interval. The
 * threads are listed again as often as listing is cheap ({@link ListingPace}). How long each capture kept its thread
 * stopped is measured and reported with the engine's cost. Runs in a process other than the target's: a thread that
 * stops a thread of its own JVM can deadlock against a safepoint, or against a lock the stopped thread holds.
 */
public final class SuspendEngine implements SamplingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(SuspendEngine.class);
    private static final int STACK_BYTES = 64 * 1024;
    private static final long HIGHEST_NANOS = 3_600_000_000_000L;

    private final TargetProcess target;
    private final String name;
    /** The sampled JVM's labels (read from a helper process: the JVM's log through its memory); null when off. */
    private SampleLabeler labels;
    private final boolean ownsTarget;
    private final Histogram paused = new Histogram(HIGHEST_NANOS, 2);
    private final Histogram perSample = new Histogram(HIGHEST_NANOS, 2);
    private volatile boolean running;
    private Thread sampler;
    private ThreadCapture capture;
    private SampleStackBuilder stacks;
    /** Builds, labels and adds each sample: the sampler thread's alone. */
    private SampleEmitter emitter;
    private final EpochClock clock = new EpochClock();
    private final CapturedThread captured = new CapturedThread(STACK_BYTES);
    private int[] tids = new int[0];
    private final CpuTimes cpuTimes = new CpuTimes();
    private final ListingPace listing = new ListingPace();
    private long samples;
    /** The intervals the samples stood for, and the most one stood for: more than one each when ticks come late. */
    private long intervalsCounted;
    private long mostInOne;
    /** The sum of the squares of the intervals each sample stood for: over {@link #intervalsCounted}, how far they clump. */
    private long intervalsSquared;
    private volatile boolean cpuEvent;
    private long failures;
    private long ticks;
    private long intervalNanos;
    private long startNanos;
    private volatile long endNanos;
    private long startCpuNanos;
    private volatile ReadsPerSample reads;
    private volatile long profilerCpuNanos = -1;
    /** Start-up (class loading, the JIT, symbol tables) is most of a short run's CPU: the rest is shown apart. */
    private volatile long warmNanos;
    private volatile long warmCpuNanos = -1;

    /** @param target the process sampled; stays open while the engine runs, and is closed by its owner */
    public SuspendEngine(TargetProcess target) {
        this(target, false, "suspend");
    }

    private SuspendEngine(TargetProcess target, boolean ownsTarget, String name) {
        this.target = target;
        this.ownsTarget = ownsTarget;
        this.name = name;
    }

    /** An engine that closes {@code target} when it stops. */
    public static SuspendEngine owning(TargetProcess target) {
        return new SuspendEngine(target, true, "suspend");
    }

    /**
     * The same, named {@code name} in outputs: {@code ptrace} on Linux, where stopping a thread is ptrace's
     * interrupt, {@code suspend} on Windows.
     */
    public static SuspendEngine owning(TargetProcess target, String name) {
        return new SuspendEngine(target, true, name);
    }

    @Override
    public boolean recordsLabels() {
        return true;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized void start(SamplingSettings settings, SampleSink sink) throws EngineUnavailableException {
        if (running) {
            throw new IllegalStateException("already started");
        }
        if (target.pid() == OwnPid.get()) {
            throw new EngineUnavailableException("threads are stopped from another process, never from their own");
        }
        String refusal = target.stopRefusal();
        if (refusal != null) {
            throw new EngineUnavailableException("threads of process " + target.pid() + " cannot be stopped: "
                    + refusal);
        }
        stacks = new SampleStackBuilder(target.modules(), target.memory(), target.threads());
        stacks.recordLines(settings.lines());
        if (!stacks.namesJava()) {
            LOG.warn("process {} has no JVM mixflame can read: its Java frames will not be named", target.pid());
        }
        capture = target.threadCapture(STACK_BYTES);
        intervalNanos = settings.intervalNanos();
        // Samples are counted in whole intervals of CPU: a thread is stopped once it has used one.
        cpuTimes.interval(intervalNanos);
        startNanos = System.nanoTime();
        endNanos = 0;
        startCpuNanos = processCpuNanos();
        warmNanos = 0;
        warmCpuNanos = -1;
        reads = new ReadsPerSample(startNanos, target.systemReads());
        labels = settings.labels() == null ? null : settings.labels().labeler(target.memory());
        // The thread capture copies a fixed length: no copy to grow.
        emitter = new SampleEmitter(stacks, sink, settings.threadRoots(), intervalNanos, null, labels);
        running = true;
        sampler = new Thread(() -> loop(settings), "mixflame-suspend-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void loop(SamplingSettings settings) {
        ThreadSource threads = target.threads();
        boolean cpu = settings.event() == ProfilingEvent.CPU;
        cpuEvent = cpu;
        long interval = settings.intervalNanos();
        long next = System.nanoTime();
        try {
            while (running) {
                long now = System.nanoTime();
                if (listing.due(now)) {
                    relist(threads.list());
                    stacks.retryProvisionalNames();
                    listing.listed(now, System.nanoTime());
                }
                ticks++;
                if (warmNanos == 0 && now - startNanos >= CostNotes.WARM_UP_NANOS) {
                    warmCpuNanos = processCpuNanos();
                    warmNanos = System.nanoTime();
                }
                for (int i = 0; i < tids.length && running; i++) {
                    long count = 1;
                    if (cpu) {
                        if (!cpuTimes.due(i, ticks)) {
                            continue;
                        }
                        count = cpuTimes.intervals(i, threads.cpuTimeNanos(tids[i]));
                        if (count == 0) {
                            continue;
                        }
                    }
                    sample(tids[i], count);
                }
                next += interval;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                } else if (-wait > interval) {
                    // Fallen behind (a long walk, a stopped machine): ticks are skipped, not caught up in a burst.
                    next = System.nanoTime();
                }
            }
        } catch (RuntimeException e) {
            LOG.error("the suspend sampler stopped: {}", e.toString());
        } finally {
            profilerCpuNanos = processCpuNanos();
            endNanos = System.nanoTime();
        }
    }

    /** Captures and adds one stack of thread {@code tid}, standing for {@code count} intervals. */
    private void sample(int tid, long count) {
        long readsBefore = target.systemReads();
        try {
            capture.capture(tid, captured);
        } catch (ThreadCaptureException e) {
            failures++;
            return;
        }
        long t0 = System.nanoTime();
        try {
            int depth = emitter.build(captured);
            // The capture's time is this helper's nanoTime: on Windows, as in the JVM, the performance counter.
            depth = emitter.label(tid, captured.time(), emitter.frames(), depth);
            emitter.add(emitter.frames(), depth, count, clock.epochNanos(captured.time()));
            samples++;
            intervalsCounted += count;
            mostInOne = Math.max(mostInOne, count);
            intervalsSquared += count * count;
        } catch (RuntimeException e) {
            failures++;
            LOG.debug("a sample could not be walked: {}", e.toString());
        }
        long t1 = System.nanoTime();
        synchronized (paused) {
            paused.recordValue(Math.min(captured.pausedNanos(), HIGHEST_NANOS));
            perSample.recordValue(Math.min(t1 - t0, HIGHEST_NANOS));
        }
        reads.sampled(t0, readsBefore < 0 ? -1 : target.systemReads() - readsBefore);
    }

    /** Takes a new listing, keeping each surviving thread's last CPU time; threads that ended are released. */
    private void relist(int[] alive) {
        if (alive.length == 0) {
            return;
        }
        cpuTimes.relisted(tids, alive);
        tids = alive;
        capture.retainOnly(alive, alive.length);
    }

    private static long processCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    @Override
    public void stop() {
        Thread s;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            s = sampler;
        }
        try {
            s.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            capture.close();
            if (ownsTarget) {
                target.close();
            }
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
        String stopped;
        String walked;
        synchronized (paused) {
            stopped = paused.getTotalCount() == 0 ? "no thread stopped"
                    : "threads stopped " + CostNotes.p50p99(paused) + " / "
                    + FixedPoint.micros(paused.getMaxValue()) + " µs max per capture";
            walked = perSample.getTotalCount() == 0 ? "no samples walked"
                    : CostNotes.p50p99(perSample) + " per sample";
        }
        long cpuNow = profilerCpuNanos >= 0 ? profilerCpuNanos : processCpuNanos();
        long end = endNanos != 0 ? endNanos : System.nanoTime();
        double elapsed = Math.max(1, end - startNanos);
        String cpu = cpuNow < 0 || startCpuNanos < 0 ? ""
                : ", profiler process " + FixedPoint.format(100.0 * (cpuNow - startCpuNanos) / elapsed, 1)
                + "% of one core";
        if (cpuNow >= 0 && warmCpuNanos >= 0 && end - warmNanos > 0) {
            cpu += " (" + FixedPoint.format(100.0 * (cpuNow - warmCpuNanos) / (end - warmNanos), 1)
                    + "% " + CostNotes.AFTER_WARM_UP + ")";
        }
        // A sampler that falls behind its interval (a slow walk, a slow system such as Wine) skips ticks rather than
        // bursting; how many it kept of those asked for tells a thin profile's cause from a quiet target.
        // A sample standing for several intervals (its thread's CPU since it was last counted, when ticks come late)
        // counts as that many: said, so that a reader judging shares by counts knows how far they clump. The average
        // is over intervals (how many intervals the sample each interval was counted with stood for), which is what
        // divides counts into independent samples.
        String counted = !cpuEvent || intervalsCounted == 0 ? ""
                : ", standing for " + intervalsCounted + " intervals of CPU (at most " + mostInOne + " in one, "
                + FixedPoint.format((double) intervalsSquared / intervalsCounted, 2) + " in an interval's sample on average)";
        notes.add(samples + " samples, " + failures + " failed captures in " + TickRate.describe(ticks, end - startNanos,
                intervalNanos) + counted + ", " + walked + cpu);
        notes.add(stopped);
        ReadsPerSample r = reads;
        String read = r == null ? "" : r.describe(target.systemReads());
        if (!read.isEmpty()) {
            notes.add(read);
        }
        return notes;
    }
}
