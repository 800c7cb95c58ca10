package io.mixflame.engine.wall;

import io.mixflame.capture.perf.PerfAbi;
import io.mixflame.engine.EpochClock;
import io.mixflame.engine.FixedPoint;
import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.capture.perf.OpenFileLimit;
import io.mixflame.capture.perf.PerfCapture;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.PerfCaptureUnavailableException;
import io.mixflame.capture.perf.PreferredSampleCapture;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.capture.perf.PerfEventAttr;
import io.mixflame.capture.perf.PerfRefusal;
import io.mixflame.capture.perf.PerfSyscalls;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.capture.perf.UserRegisters;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.linux.LinuxSampleStacks;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.ProcThreadSource;
import io.mixflame.process.linux.ShortSlice;
import io.mixflame.profile.Frame;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.SampleSink;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
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
     * At most this many threads are visited ({@code /proc} read, stack walked) at one tick, and a tick stops visiting
     * once it has taken a quarter of the interval: with thousands of threads that all moved, a tick visits a subset,
     * the others at the next ticks in turn, and each visit's sample stands for every interval since its thread's last
     * one, so that shares stay true and ticks stay on time. Threads whose perf page says they have not run cost no
     * visit.
     */
    static final int MAX_VISITS_PER_TICK = 100;
    /** Threads followed; those past it are not sampled (the bound on what is kept per thread). */
    private static final int MAX_THREADS = 32_768;
    /** The part of the process's open-file limit the threads' {@code /proc} files may hold open. */
    private static final int FILE_LIMIT_SHARE = 4;
    /**
     * Running threads' latest samples kept at once: only those of the last two intervals stand for a tick, and the
     * CPUs take a few samples each per interval.
     */
    private static final int MAX_COPIES = 256;
    /** The sampler's scheduling slice, as the perf engine's sampler: it runs soon after it wakes. */
    private static final long SAMPLER_SLICE_NANOS = 100_000L;
    /**
     * The perf period is this fraction of the wall interval: a thread that runs in short bursts (a request handler)
     * then has a sample from its current burst far more often than with one sample per 20 ms of its CPU time.
     */
    private static final int CPU_SAMPLES_PER_TICK = 4;
    /** The shortest perf period used for that, whatever the interval. */
    private static final long MIN_CPU_PERIOD_NANOS = 1_000_000L;

    private final long pid;
    private final PerfSyscalls syscalls;
    /** Whether to refuse to start where perf events are refused, rather than sample running threads unwalked. */
    private boolean needsRunningStacks;
    private final ThreadSource threadSource;
    private final EnumSet<ThreadState> states;
    private volatile boolean running;
    private Thread sampler;
    private SampleCapture capture;
    /** The capture when it has a ring per thread, whose mapped page says how long each thread has run; else null. */
    private PerfCapture perThread;
    /** Whether the capture reports threads' switches (per-CPU): then a thread that has not moved needs no visit. */
    private boolean switchesKnown;
    /** Switch records were lost: every thread may have run. */
    private boolean switchesLost;
    private final Switches switchListener = new Switches();
    private LinuxProcessMemory memory;
    private SampleStackBuilder stacks;
    /** The labels of this JVM's threads; null when not recorded. */
    private SampleLabeler labels;
    private final EpochClock clock = new EpochClock();
    private BlockedThreadCapture blocked;
    private final Map<Integer, ThreadEntry> threads = new HashMap<>();
    /** Readers that hold a descriptor, within {@link #readerBudget}. */
    private int openReaders;
    private final long readerBudget = OpenFileLimit.soft() / FILE_LIMIT_SHARE;
    private final ByteBuffer readScratch = ByteBuffer.allocate(256);
    /** Stack copies of running threads' latest samples, given back when they are too old to stand for a tick. */
    private final ArrayDeque<CapturedThread> freeCopies = new ArrayDeque<>();
    private int copiesMade;
    /** The threads in the order ticks visit them, from {@link #cursor} on. */
    private ThreadEntry[] order = new ThreadEntry[0];
    private int cursor;
    private long ticks;
    /** Ticks whose visits ran out before every thread that needed one had it. */
    private long partialTicks;
    /** The most intervals one sample stood for because its thread waited for a visit. */
    private long longestWait;
    private volatile long intervalNanos;
    private volatile long stoppedNanos;
    /** When the ticks began, the capture opened and the sampler's code warmed up: the ticks asked count from here. */
    private volatile long tickingSince;
    private long walks;
    private long reused;
    private long startNanos;
    private long cpuNanos;
    private PerfCaptureSettings captureSettings;
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
        final int tid;
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
        /** Intervals since the thread was last visited: what its next sample stands for. */
        long owed;
        /** Whether it was switched onto or off a CPU, or sampled, since it was last visited (per-CPU capture). */
        boolean moved = true;

        ThreadEntry(int tid, SyscallLineReader reader) {
            this.tid = tid;
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

    /**
     * Makes {@link #start} refuse where perf events are refused, so that an engine that can walk the running threads
     * another way is tried next; without it, running threads are sampled as {@code [running]}, unwalked.
     *
     * @return this engine
     */
    public WallEngine needingRunningStacks() {
        needsRunningStacks = true;
        return this;
    }

    @Override
    public synchronized void start(SamplingSettings settings, SampleSink target) throws EngineUnavailableException {
        if (settings.event() != ProfilingEvent.WALL) {
            throw new EngineUnavailableException("the wall engine samples wall-clock time only");
        }
        if (needsRunningStacks) {
            // One event of this thread, opened and closed: where it is refused, so are the running threads' stacks.
            int fd = syscalls.perfEventOpen(PerfEventAttr.cpuClock(settings.intervalNanos(),
                    UserRegisters.MASK, PerfCaptureSettings.DEFAULT_STACK_BYTES, false, 1), 0,
                    PerfAbi.FLAG_FD_CLOEXEC);
            if (fd < 0) {
                throw new EngineUnavailableException("running threads' stacks cannot be sampled: "
                        + PerfRefusal.explain(fd));
            }
            syscalls.close(fd);
        }
        try {
            memory = new LinuxProcessMemory(pid);
            stacks = LinuxSampleStacks.open(pid, memory);
            stacks.recordLines(settings.lines());
            blocked = new BlockedThreadCapture(pid, memory, BLOCKED_STACK_BYTES);
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new EngineUnavailableException("process " + pid + " cannot be read: " + e);
        }
        captureSettings = new PerfCaptureSettings(pid,
                Math.max(MIN_CPU_PERIOD_NANOS, settings.intervalNanos() / CPU_SAMPLES_PER_TICK),
                PerfCaptureSettings.DEFAULT_STACK_BYTES, PerfCaptureSettings.DEFAULT_DATA_PAGES,
                PerfCaptureSettings.DEFAULT_MAX_THREADS, false);
        running = true;
        intervalNanos = settings.intervalNanos();
        startNanos = System.nanoTime();
        sampler = new Thread(() -> loop(settings, target), "mixflame-wall-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * Opens the running threads' capture, from the sampler's thread, which it then samples without a stack: the
     * application's thread (premain) does not wait for it either.
     */
    private void openCapture() {
        SampleCapture opened;
        try {
            opened = PreferredSampleCapture.open(captureSettings, syscalls,
                    samplerTid > 0 && pid == OwnPid.get() ? new int[] {samplerTid} : new int[0], switchListener);
        } catch (PerfCaptureUnavailableException | RuntimeException | LinkageError e) {
            LOG.warn("running threads' stacks are not sampled ({}); they show as [running]", e.getMessage());
            return;
        }
        synchronized (this) {
            if (!running) {
                opened.close();
                return;
            }
            capture = opened;
            perThread = opened instanceof PerfCapture p ? p : null;
            switchesKnown = perThread == null;
        }
    }

    private void loop(SamplingSettings settings, SampleSink target) {
        samplerTid = (int) selfTid();
        openCapture();
        // On the sampler's thread, not in start(): the application's thread (premain) must not wait for it.
        stacks.warmUp();
        settingsInUse = settings;
        labels = settings.labels() == null ? null : settings.labels().labeler(memory);
        targetInUse = target;
        long lastPoll = 0;
        ShortSlice.request(SAMPLER_SLICE_NANOS, 0);
        long interval = settings.intervalNanos();
        TickWeight weights = new TickWeight(interval, System.nanoTime());
        // Ticks at fixed deadlines, not an interval after the last tick's end: a tick's own work must not stretch
        // the period (with a thousand threads, a few milliseconds a tick would cost a tenth of the ticks at 20 ms).
        tickingSince = System.nanoTime();
        long deadline = tickingSince + interval;
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
                if (capture != null) {
                    capture.drain(keepLatest);
                    if (growth.hasPending()) {
                        growth.takePending(growStack);
                    }
                }
                if (now - lastPoll >= THREAD_POLL_NANOS && threadCountChangedOrStale(now)) {
                    Set<Integer> alive = refreshThreads();
                    if (perThread != null && alive != null) {
                        perThread.refreshThreads(alive);
                    } else if (capture != null) {
                        capture.refreshThreads();
                    }
                    if (capture != null) {
                        growth.retain(sampled);
                    }
                    stacks.retryProvisionalNames();
                    lastPoll = now;
                }
                tick(settings, target, now, due, weights.next(now));
            }
        } catch (RuntimeException e) {
            LOG.error("the wall-clock sampler stopped: {}", e.toString());
        } finally {
            stoppedNanos = System.nanoTime();
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
            t.latestCpu = freeCopies.poll();
            if (t.latestCpu == null) {
                if (copiesMade >= MAX_COPIES) {
                    return;
                }
                copiesMade++;
                t.latestCpu = CapturedThread.offHeap(s.stack.length);
            }
        }
        s.copyTo(t.latestCpu);
        t.latestCpuTime = System.nanoTime();
        t.moved = true;
    }

    /** Marks the threads the capture saw switched as moved: a class rather than a lambda, spun at start-up. */
    private final class Switches implements SampleCapture.SwitchListener {
        @Override
        public void switched(int tid) {
            ThreadEntry t = threads.get(tid);
            if (t != null) {
                t.moved = true;
            }
        }

        @Override
        public void lost() {
            switchesLost = true;
        }
    }

    /**
     * Samples the threads, each tick's {@code intervals} owed to every thread: those that have not run since their
     * last stack (their perf page says so) are counted again at once; the others are visited in turn, as many as the
     * tick's budget allows (at least one a tick), each visit's sample standing for what its thread is owed.
     */
    private void tick(SamplingSettings settings, SampleSink target, long now, long due, int intervals) {
        long at = clock.epochNanos(now);
        ticks++;
        ThreadEntry[] all = order;
        int n = all.length;
        int visits = 0;
        // From when the tick was due: a tick that woke late (a core busy, a safepoint) visits less, so that the next
        // one is on time.
        long budgetEnd = due + settings.intervalNanos() / 4;
        int resumeAt = -1;
        boolean allMoved = switchesLost;
        switchesLost = false;
        for (int k = 0, i = cursor; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
            ThreadEntry t = all[i];
            t.owed += intervals;
            t.moved |= allMoved;
            if (t.latestCpu != null && now - t.latestCpuTime >= 2 * settings.intervalNanos()) {
                freeCopies.push(t.latestCpu);
                t.latestCpu = null;
            }
            if (unmoved(t, settings, target, at)) {
                continue;
            }
            if (resumeAt >= 0) {
                continue;
            }
            visit(t, settings, target, now, at);
            if (++visits >= MAX_VISITS_PER_TICK || System.nanoTime() - budgetEnd > 0) {
                resumeAt = i + 1 == n ? 0 : i + 1;
            }
        }
        if (resumeAt >= 0) {
            cursor = resumeAt;
            partialTicks++;
        }
    }

    /**
     * Counts the thread's last stack again when it has not run since: its perf page says so (a ring per thread), or
     * no switch of it onto a CPU was reported (per-CPU rings). No system call: the cost of many idle threads is a
     * memory read per tick. Counted here, added in bulk.
     */
    private boolean unmoved(ThreadEntry t, SamplingSettings settings, SampleSink target, long at) {
        if (t.lastFrames == null || t.lastLine == null) {
            return false;
        }
        if (perThread != null) {
            long ran = perThread.timeRunning(t.tid);
            if (ran < 0 || ran != t.lastTimeRunning) {
                return false;
            }
        } else if (!switchesKnown || t.moved) {
            return false;
        }
        reused++;
        if (t.pending == 0) {
            t.pendingSince = at;
        }
        t.pending += t.owed;
        t.owed = 0;
        if (t.pending >= FLUSH_TICKS) {
            flush(t, settings, target);
        }
        return true;
    }

    /** Reads the thread's state and takes its sample, standing for the intervals it is owed. */
    private void visit(ThreadEntry t, SamplingSettings settings, SampleSink target, long now, long at) {
        int tid = t.tid;
        long intervals = t.owed;
        t.owed = 0;
        longestWait = Math.max(longestWait, intervals);
        long weight = intervals * settings.intervalNanos();
        boolean ranMeanwhile = switchesKnown && t.moved;
        t.moved = false;
        if (t.lastFrames != null && t.lastLine != null && perThread != null) {
            long ran = perThread.timeRunning(tid);
            ranMeanwhile = ran != t.lastTimeRunning;
            t.lastTimeRunning = ran;
        }
        flush(t, settings, target);
        String line;
        try {
            line = t.reader.read();
        } catch (IOException ex) {
            return;
        }
        if (SyscallLineReader.isRunning(line)) {
            if (!states.contains(ThreadState.RUNNING)) {
                return;
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
            return;
        }
        ThreadState state = ThreadState.ofSyscall(SyscallLineReader.syscall(line));
        if (!states.contains(state)) {
            return;
        }
        t.blockedSeenAt = now;
        // The same line after the thread ran is the same call site reached again, perhaps from other callers
        // (two handlers that both sleep): only without the perf page's evidence does the line alone decide.
        if (!ranMeanwhile && line.equals(t.lastLine) && t.lastFrames != null) {
            reused++;
            addKept(t, settings, target, intervals, at);
            return;
        }
        try {
            int depth = stacks.buildBlocked(tid, blocked, settings.threadRoots(), state.frame());
            if (depth < 0) {
                t.lastLine = null;
                return;
            }
            walks++;
            t.lastTimeRunning = perThread == null ? -1 : perThread.timeRunning(tid);
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

    private void flush(ThreadEntry t, SamplingSettings settings, SampleSink target) {
        if (t.pending > 0 && t.lastFrames != null) {
            // Stamped with the first of them: a thread that did not run is counted in runs, not tick by tick.
            addKept(t, settings, target, t.pending, t.pendingSince);
        }
        t.pending = 0;
    }

    /**
     * Adds the thread's kept stack again, under its root frame as it is now: a thread named provisionally when its
     * stack was kept may have its Java name since, and a parked thread's stack is kept for as long as it sleeps.
     */
    private void addKept(ThreadEntry t, SamplingSettings settings, SampleSink target, long intervals, long at) {
        if (settings.threadRoots()) {
            t.lastFrames[0] = stacks.threadFrame(t.tid);
            stacks.renameRoots(target);
        }
        target.add(t.lastFrames, t.lastDepth, intervals, intervals * settings.intervalNanos(), at);
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
                forget(e.getValue());
                it.remove();
            }
        }
        for (int tid : alive) {
            if (!threads.containsKey(tid) && threads.size() < MAX_THREADS) {
                try {
                    SyscallLineReader reader = new SyscallLineReader(pid, tid, openReaders < readerBudget,
                            readScratch);
                    openReaders += reader.open() ? 1 : 0;
                    threads.put(tid, new ThreadEntry(tid, reader));
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        }
        order = threads.values().toArray(new ThreadEntry[0]);
        cursor = order.length == 0 ? 0 : cursor % order.length;
        return all;
    }

    /** A thread that ended: its pending samples added, its descriptor and stack copy given back. */
    private void forget(ThreadEntry t) {
        flush(t, settingsInUse, targetInUse);
        openReaders -= t.reader.open() ? 1 : 0;
        t.reader.close();
        if (t.latestCpu != null) {
            freeCopies.push(t.latestCpu);
            t.latestCpu = null;
        }
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
    public List<NativeModule> modules() {
        SampleStackBuilder s = stacks;
        return s == null ? List.of() : s.touchedModules();
    }

    @Override
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>();
        long end = stoppedNanos != 0 ? stoppedNanos : System.nanoTime();
        double elapsed = Math.max(1, end - startNanos);
        long since = tickingSince;
        long asked = intervalNanos == 0 || since == 0 ? 0 : (end - since) / intervalNanos;
        notes.add(ticks + " of " + asked + " wall-clock ticks, " + walks + " blocked stacks walked, " + reused
                + " reused unchanged"
                + (cpuNanos == 0 ? "" : ", sampler " + FixedPoint.format(100.0 * cpuNanos / elapsed, 2) + "% of one core"));
        if (partialTicks > 0) {
            notes.add(partialTicks + " ticks visited some of the threads that moved (at most " + MAX_VISITS_PER_TICK
                    + " a tick), the rest at the next ticks: a sample stood for up to " + longestWait
                    + " intervals of its thread");
        }
        return notes;
    }
}
