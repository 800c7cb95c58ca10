package io.mixflame.engine.wall;

import io.mixflame.engine.EpochClock;
import io.mixflame.engine.FixedPoint;
import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.capture.perf.PerfCapture;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.PerfCaptureUnavailableException;
import io.mixflame.capture.perf.PerfSyscalls;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.perf.LinuxSampleStacks;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.ProcThreadSource;
import io.mixflame.profile.Frame;
import io.mixflame.profile.SampleSink;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wall-clock sampling: at every tick each thread of the process is sampled whether it runs or waits, and each
 * sample stands for one interval of that thread's time. A thread blocked in the kernel is walked from its
 * {@code /proc} syscall line without stopping it — and not walked again while that line stays the same, since it
 * has not moved; a running thread gets the stack of its latest perf sample (the cpu capture runs alongside), or
 * just {@code [running]} when it has none yet. The thread's state is the stack's leaf frame.
 */
public final class WallEngine implements SamplingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(WallEngine.class);
    private static final long THREAD_POLL_NANOS = 100_000_000L;
    private static final long FULL_LISTING_NANOS = 1_000_000_000L;
    private static final int BLOCKED_STACK_BYTES = 32 * 1024;
    /** Ticks a reused stack's samples may wait before they reach the profile (half a second at 20 ms). */
    private static final int FLUSH_TICKS = 25;
    /**
     * The perf period is this fraction of the wall interval: a thread that runs in short bursts (a request handler)
     * then has a sample from its current burst far more often than with one sample per 20 ms of its CPU time.
     */
    private static final int CPU_SAMPLES_PER_TICK = 4;
    /** The shortest perf period used for that, whatever the interval. */
    private static final long MIN_CPU_PERIOD_NANOS = 1_000_000L;

    private final long pid;
    private final PerfSyscalls syscalls;
    private final ThreadSource threadSource;
    private final EnumSet<ThreadState> states;
    private volatile boolean running;
    private Thread sampler;
    private PerfCapture capture;
    private LinuxProcessMemory memory;
    private SampleStackBuilder stacks;
    /** The labels of this JVM's threads; null when not recorded. */
    private io.mixflame.capture.labels.SampleLabeler labels;
    private final EpochClock clock = new EpochClock();
    private BlockedThreadCapture blocked;
    private final Map<Integer, ThreadEntry> threads = new HashMap<>();
    private long ticks;
    private long walks;
    private long reused;
    private long startNanos;
    private long cpuNanos;
    private SamplingSettings settingsInUse;
    private SampleSink targetInUse;
    private int samplerTid;
    private int listedThreads = -1;
    private long lastListing;
    /**
     * Larger stack copies for running threads whose walks broke above their copy, as the perf engine grows them; here
     * the sampler both walks and owns the capture, so it asks and applies on its own thread.
     */
    private final StackCopyGrowth growth = new StackCopyGrowth(PerfCaptureSettings.MAX_STACK_BYTES,
            StackCopyGrowth.DEFAULT_THREADS);
    private final Consumer<RawSample> keepLatest = this::keepLatest;
    private final StackCopyGrowth.Applier growStack = (tid, bytes) -> capture.growStack(tid, bytes, keepLatest);
    private final IntPredicate sampled = tid -> capture.sampling(tid);

    /** What is known of one thread between ticks. */
    private static final class ThreadEntry {
        final SyscallLineReader reader;
        String lastLine;
        Frame[] lastFrames;
        int lastDepth;
        CapturedThread latestCpu;
        long latestCpuTime;
        /** When it was last seen blocked: a cpu sample from before that is from an earlier run of the thread. */
        long blockedSeenAt;
        long lastTimeRunning = -1;
        long pending;
        /** When the first of the pending samples was taken, in nanoseconds since the epoch. */
        long pendingSince;

        ThreadEntry(SyscallLineReader reader) {
            this.reader = reader;
        }
    }

    /** Wall-clock sampling of the own process, every state. */
    public WallEngine() {
        this(OwnPid.get(), new LinuxPerfSyscalls(), EnumSet.allOf(ThreadState.class));
    }

    /**
     * @param pid      the process sampled
     * @param syscalls the perf system calls (for the running threads' stacks)
     * @param states   the states whose samples are kept
     */
    public WallEngine(long pid, PerfSyscalls syscalls, EnumSet<ThreadState> states) {
        this.pid = pid;
        this.threadSource = new ProcThreadSource(pid);
        this.syscalls = syscalls;
        this.states = EnumSet.copyOf(states);
    }

    @Override
    public boolean recordsLabels() {
        return true;
    }

    @Override
    public String name() {
        return "perf";
    }

    @Override
    public synchronized void start(SamplingSettings settings, SampleSink target) throws EngineUnavailableException {
        if (settings.event() != ProfilingEvent.WALL) {
            throw new EngineUnavailableException("the wall engine samples wall-clock time only");
        }
        try {
            memory = new LinuxProcessMemory(pid);
            stacks = LinuxSampleStacks.open(pid, memory);
            stacks.recordLines(settings.lines());
            blocked = new BlockedThreadCapture(pid, memory, BLOCKED_STACK_BYTES);
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new EngineUnavailableException("process " + pid + " cannot be read: " + e);
        }
        capture = new PerfCapture(new PerfCaptureSettings(pid,
                Math.max(MIN_CPU_PERIOD_NANOS, settings.intervalNanos() / CPU_SAMPLES_PER_TICK),
                PerfCaptureSettings.DEFAULT_STACK_BYTES, PerfCaptureSettings.DEFAULT_DATA_PAGES,
                PerfCaptureSettings.DEFAULT_MAX_THREADS, false), syscalls, threadSource);
        try {
            capture.start();
        } catch (PerfCaptureUnavailableException e) {
            capture.close();
            capture = null;
            LOG.warn("running threads' stacks are not sampled ({}); they show as [running]", e.getMessage());
        }
        running = true;
        startNanos = System.nanoTime();
        sampler = new Thread(() -> loop(settings, target), "mixflame-wall-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void loop(SamplingSettings settings, SampleSink target) {
        samplerTid = (int) selfTid();
        // On the sampler's thread, not in start(): the application's thread (premain) must not wait for it.
        stacks.warmUp();
        settingsInUse = settings;
        labels = settings.labels() == null ? null : settings.labels().labeler(memory);
        targetInUse = target;
        long lastPoll = 0;
        TickWeight weights = new TickWeight(settings.intervalNanos(), System.nanoTime());
        try {
            while (running) {
                LockSupport.parkNanos(settings.intervalNanos());
                long now = System.nanoTime();
                if (capture != null) {
                    capture.drain(keepLatest);
                    if (growth.hasPending()) {
                        growth.takePending(growStack);
                    }
                }
                if (now - lastPoll >= THREAD_POLL_NANOS && threadCountChangedOrStale(now)) {
                    Set<Integer> alive = refreshThreads();
                    if (capture != null && alive != null) {
                        capture.refreshThreads(alive);
                        growth.retain(sampled);
                    }
                    lastPoll = now;
                }
                tick(settings, target, now, weights.next(now));
            }
        } catch (RuntimeException e) {
            LOG.error("the wall-clock sampler stopped: {}", e.toString());
        } finally {
            cpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            for (ThreadEntry t : threads.values()) {
                flush(t, settings, target);
                t.reader.close();
            }
            threads.clear();
        }
    }

    private void keepLatest(RawSample s) {
        ThreadEntry t = threads.get(s.tid);
        if (t == null) {
            return;
        }
        if (t.latestCpu == null) {
            t.latestCpu = CapturedThread.offHeap(s.stack.length);
        }
        s.copyTo(t.latestCpu);
        t.latestCpuTime = System.nanoTime();
    }

    /** Samples every thread once; each sample stands for {@code intervals} intervals of its time. */
    private void tick(SamplingSettings settings, SampleSink target, long now, int intervals) {
        long weight = intervals * settings.intervalNanos();
        long at = clock.epochNanos(now);
        ticks++;
        for (Map.Entry<Integer, ThreadEntry> e : threads.entrySet()) {
            int tid = e.getKey();
            ThreadEntry t = e.getValue();
            boolean ranMeanwhile = false;
            if (t.lastFrames != null && t.lastLine != null && capture != null) {
                // The perf event's mapped page says how long the thread has run: unchanged, it has not moved, and
                // its last stack stands again without reading /proc (the cost of many idle threads).
                long ran = capture.timeRunning(tid);
                ranMeanwhile = ran != t.lastTimeRunning;
                if (ran >= 0 && !ranMeanwhile) {
                    reused++;
                    // Counted here and added in bulk: an idle thread then costs a memory read per tick.
                    if (t.pending == 0) {
                        t.pendingSince = at;
                    }
                    t.pending += intervals;
                    if (t.pending >= FLUSH_TICKS) {
                        flush(t, settings, target);
                    }
                    continue;
                }
                t.lastTimeRunning = ran;
            }
            flush(t, settings, target);
            String line;
            try {
                line = t.reader.read();
            } catch (IOException ex) {
                continue;
            }
            if (SyscallLineReader.isRunning(line)) {
                if (!states.contains(ThreadState.RUNNING)) {
                    continue;
                }
                int depth;
                Frame[] frames;
                if (t.latestCpu != null && t.latestCpuTime > t.blockedSeenAt
                        && now - t.latestCpuTime < 2 * settings.intervalNanos()) {
                    depth = stacks.build(t.latestCpu, settings.threadRoots());
                    if (stacks.copyTooShort()) {
                        growth.request(tid, t.latestCpu.stackLength());
                    }
                    frames = stacks.frames();
                    frames = Arrays.copyOf(frames, Math.max(frames.length, depth + 1));
                    frames[depth++] = ThreadState.RUNNING.frame();
                } else {
                    frames = settings.threadRoots()
                            ? new Frame[] {stacks.threadFrame(tid), ThreadState.RUNNING.frame()}
                            : new Frame[] {ThreadState.RUNNING.frame()};
                    depth = frames.length;
                }
                t.lastLine = null;
                if (labels != null) {
                    depth = labels.label(tid, now, frames, depth, settings.threadRoots());
                    frames = labels.frames();
                }
                stacks.renameRoots(target);
                target.add(frames, depth, intervals, weight, at);
                continue;
            }
            ThreadState state = ThreadState.ofSyscall(SyscallLineReader.syscall(line));
            if (!states.contains(state)) {
                continue;
            }
            t.blockedSeenAt = now;
            // The same line after the thread ran is the same call site reached again, perhaps from other callers
            // (two handlers that both sleep): only without the perf page's evidence does the line alone decide.
            if (!ranMeanwhile && line.equals(t.lastLine) && t.lastFrames != null) {
                reused++;
                target.add(t.lastFrames, t.lastDepth, intervals, weight, at);
                continue;
            }
            try {
                int depth = stacks.buildBlocked(tid, blocked, settings.threadRoots(), state.frame());
                if (depth < 0) {
                    t.lastLine = null;
                    continue;
                }
                walks++;
                t.lastTimeRunning = capture == null ? -1 : capture.timeRunning(tid);
                Frame[] built = stacks.frames();
                if (labels != null) {
                    // Kept with the stack: a thread that has not run since cannot have changed its labels.
                    depth = labels.label(tid, now, built, depth, settings.threadRoots());
                    built = labels.frames();
                }
                stacks.renameRoots(target);
                t.lastFrames = Arrays.copyOf(built, depth);
                t.lastDepth = depth;
                t.lastLine = line;
                target.add(t.lastFrames, depth, intervals, weight, at);
            } catch (IOException ex) {
                t.lastLine = null;
            }
        }
    }

    private static void flush(ThreadEntry t, SamplingSettings settings, SampleSink target) {
        if (t.pending > 0 && t.lastFrames != null) {
            // Stamped with the first of them: a thread that did not run is counted in runs, not tick by tick.
            target.add(t.lastFrames, t.lastDepth, t.pending, t.pending * settings.intervalNanos(), t.pendingSince);
        }
        t.pending = 0;
    }

    /**
     * Whether the thread list should be read again: the process's thread count (one stat call) differs from the last listing, or the last listing is a second old (a thread that
     * ended while another started leaves the count as it was). Listing 500 threads every 100 ms would cost more than
     * sampling them.
     */
    private boolean threadCountChangedOrStale(long now) {
        if (now - lastListing >= FULL_LISTING_NANOS) {
            return true;
        }
        int count = threadSource.count();
        return count < 0 || count != listedThreads;
    }

    /** Reads the thread list once for both the /proc readers and the perf events; null when it cannot be read. */
    private Set<Integer> refreshThreads() {
        int[] tids = threadSource.list();
        if (tids.length == 0) {
            return null;
        }
        Set<Integer> alive = new HashSet<>(tids.length * 2);
        for (int tid : tids) {
            alive.add(tid);
        }
        Set<Integer> all = new HashSet<>(alive);
        listedThreads = all.size();
        lastListing = System.nanoTime();
        alive.remove(samplerTid);
        for (Iterator<Map.Entry<Integer, ThreadEntry>> it = threads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, ThreadEntry> e = it.next();
            if (!alive.contains(e.getKey())) {
                flush(e.getValue(), settingsInUse, targetInUse);
                e.getValue().reader.close();
                it.remove();
            }
        }
        for (int tid : alive) {
            if (!threads.containsKey(tid) && threads.size() < PerfCaptureSettings.DEFAULT_MAX_THREADS) {
                try {
                    threads.put(tid, new ThreadEntry(new SyscallLineReader(pid, tid)));
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        }
        return all;
    }

    /** The sampler's own thread is left out: its stack would always be this code. */
    private static long selfTid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
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
            if (capture != null) {
                capture.close();
            }
            memory.close();
        }
    }

    @Override
    public List<io.mixflame.profile.NativeModule> modules() {
        SampleStackBuilder s = stacks;
        return s == null ? List.of() : s.touchedModules();
    }

    @Override
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>();
        double elapsed = Math.max(1, System.nanoTime() - startNanos);
        notes.add(ticks + " wall-clock ticks, " + walks + " blocked stacks walked, " + reused + " reused unchanged"
                + (cpuNanos == 0 ? "" : ", sampler " + FixedPoint.format(100.0 * cpuNanos / elapsed, 2) + "% of one core"));
        return notes;
    }
}
