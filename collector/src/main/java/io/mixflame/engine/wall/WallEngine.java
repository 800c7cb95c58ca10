package io.mixflame.engine.wall;

import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.capture.perf.PerfAbi;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.PerfEventAttr;
import io.mixflame.capture.perf.PerfRefusal;
import io.mixflame.capture.perf.PerfSyscalls;
import io.mixflame.capture.perf.UserRegisters;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.ThreadLifeNames;
import io.mixflame.engine.linux.LinuxSampleStacks;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.SampleSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Wall-clock sampling: at every tick each thread of the process is sampled whether it runs or waits, and each
 * sample stands for one interval of that thread's time. A thread blocked in the kernel is walked from its
 * {@code /proc} syscall line without stopping it — and not walked again while that line stays the same, since it
 * has not moved; a running thread gets the stack of its latest perf sample (the cpu capture runs alongside), or
 * just {@code [running]} when it has none yet. The thread's state is the stack's leaf frame.
 *
 * <p>This class starts, stops and reports the sampler thread ({@link WallSampler}), which ticks over the threads
 * ({@link WallTick}, {@link ThreadVisit}) it follows ({@link WallThreads}) with the running threads' latest samples
 * ({@link RunningSamples}).
 */
public final class WallEngine implements SamplingEngine {
    private static final int BLOCKED_STACK_BYTES = 32 * 1024;
    /**
     * The perf period is this fraction of the wall interval: a thread that runs in short bursts (a request handler)
     * then has a sample from its current burst far more often than with one sample per 20 ms of its CPU time.
     */
    private static final int CPU_SAMPLES_PER_TICK = 4;
    /**
     * The stack copy of a running thread's sample, half the CPU engine's: the samples come four times a tick, and on a
     * machine with hundreds of runnable threads the relay thread that empties the kernel's rings gets about its share
     * of a core; with 16 KiB copies a delayed pass grew past what that share moves, and the kernel's rings overflowed
     * (switch records with the samples). A thread whose walks reach past its copy is given a larger one
     * ({@code StackCopyGrowth}).
     */
    private static final int RUNNING_STACK_BYTES = 8 * 1024;
    /** The shortest perf period used for that, whatever the interval. */
    private static final long MIN_CPU_PERIOD_NANOS = 1_000_000L;

    private final long pid;
    private final PerfSyscalls syscalls;
    /** Whether to refuse to start where perf events are refused, rather than sample running threads unwalked. */
    private boolean needsRunningStacks;
    private final EnumSet<ThreadState> states;
    private WallSampler samplerBody;
    private Thread sampler;
    private LinuxProcessMemory memory;
    private SampleStackBuilder stacks;
    /** The names threads tell as they start and end; null where they are not heard. */
    private ThreadLifeNames told;
    private final WallCosts costs = new WallCosts();

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
        BlockedThreadCapture blocked;
        try {
            memory = new LinuxProcessMemory(pid);
            stacks = LinuxSampleStacks.open(pid, memory);
            stacks.recordLines(settings.lines());
            blocked = new BlockedThreadCapture(pid, memory, BLOCKED_STACK_BYTES);
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new EngineUnavailableException("process " + pid + " cannot be read: " + e);
        }
        PerfCaptureSettings captureSettings = new PerfCaptureSettings(pid,
                Math.max(MIN_CPU_PERIOD_NANOS, settings.intervalNanos() / CPU_SAMPLES_PER_TICK),
                RUNNING_STACK_BYTES, PerfCaptureSettings.DEFAULT_DATA_PAGES,
                PerfCaptureSettings.DEFAULT_MAX_THREADS, false);
        told = settings.threadRoots() ? LinuxSampleStacks.hearThreadLife(stacks, pid) : null;
        costs.started(settings.intervalNanos(), System.nanoTime());
        samplerBody = new WallSampler(pid, syscalls, captureSettings, settings, target, stacks, memory, blocked,
                states, costs);
        sampler = new Thread(samplerBody, "mixflame-wall-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    @Override
    public void stop() {
        Thread s;
        synchronized (this) {
            if (samplerBody == null || !samplerBody.running()) {
                return;
            }
            samplerBody.stop();
            s = sampler;
        }
        try {
            s.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (told != null) {
                told.close();
            }
            samplerBody.closeCapture();
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
        List<String> notes = costs.notes();
        String toldNote = LinuxSampleStacks.toldNote(told);
        if (toldNote == null) {
            return notes;
        }
        List<String> all = new ArrayList<>(notes);
        all.add(toldNote);
        return all;
    }
}
