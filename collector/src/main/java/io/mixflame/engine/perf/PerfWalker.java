package io.mixflame.engine.perf;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.engine.EpochClock;
import io.mixflame.engine.ReadsPerSample;
import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.engine.SampleEmitter;
import io.mixflame.engine.linux.ThreadCpuClock;
import io.mixflame.process.linux.ProcThreadSelf;
import io.mixflame.profile.Frame;
import io.mixflame.profile.SampleSink;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The perf engine's walker thread: walks each sample the sampler handed over into the profile (unwound, named,
 * labelled with the set looked up at its time), asks for a larger stack copy for a thread whose walks need one,
 * counts the profiler's own samples without walking them, and adds the samples dropped or lost as such.
 */
final class PerfWalker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(PerfWalker.class);
    private static final long IDLE_NANOS = 50_000_000L;

    private final PerfRun run;
    private final SamplePool pool;
    private final SamplingSettings settings;
    private final SampleSink target;
    private final SampleStackBuilder stacks;
    /** The walker's reader of the process, to count the reads each walk makes. */
    private final LinuxProcessMemory memory;
    private final StackCopyGrowth growth;
    private final UnwalkedSamples unwalked;
    private final PerfEngineCosts costs;
    private final ReadsPerSample reads;
    /** Perf samples are stamped on the monotonic clock ({@code PerfEventAttr}). */
    private final EpochClock clock = new EpochClock();
    private final Frame[] ownStack = new Frame[2];
    /** Made once the labels are known, with the capture. */
    private SampleEmitter emitter;

    PerfWalker(PerfRun run, SamplePool pool, SamplingSettings settings, SampleSink target, SampleStackBuilder stacks,
               LinuxProcessMemory memory, StackCopyGrowth growth, UnwalkedSamples unwalked, PerfEngineCosts costs,
               ReadsPerSample reads) {
        this.run = run;
        this.pool = pool;
        this.settings = settings;
        this.target = target;
        this.stacks = stacks;
        this.memory = memory;
        this.growth = growth;
        this.unwalked = unwalked;
        this.costs = costs;
        this.reads = reads;
    }

    @Override
    public void run() {
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        // Here rather than in the engine's start, which runs on the application's thread (premain) and must not wait
        // for symbol tables: samples taken meanwhile wait in the rings and the pool.
        run.walkerStarted(ProcThreadSelf.tid());
        if (!run.awaitOpened()) {
            return;
        }
        emitter = new SampleEmitter(stacks, target, settings.threadRoots(), settings.intervalNanos(), growth,
                run.labels());
        UnwalkedFrames unwalkedFrames = new UnwalkedFrames();
        try {
            stacks.warmUp();
            while (run.walking(pool)) {
                if (unwalked.pending()) {
                    unwalked.take(unwalkedFrames);
                }
                CapturedThread s = pool.next();
                if (s == null) {
                    stacks.walkerWaiting();
                    // Woken by the sampler after a drain that handed samples over; the timeout only bounds how
                    // long a stop waits.
                    LockSupport.parkNanos(IDLE_NANOS);
                    continue;
                }
                long t0 = System.nanoTime();
                // Read before the buffer goes back to the pool.
                long taken = s.time();
                boolean own = run.own(s.tid());
                // The profiler's own samples are not the application's CPU: left out of how far counts clump.
                int intervals = own ? 0 : s.weight();
                long readsBefore = memory.systemReads();
                boolean cpuTimed = costs.timesCpu(t0);
                long c0 = cpuTimed ? cpuClock.nanos() : 0;
                try {
                    if (own) {
                        addOwn(s);
                    } else {
                        add(s);
                    }
                } catch (RuntimeException e) {
                    LOG.debug("a sample could not be walked: {}", e.toString());
                } finally {
                    pool.giveBack(s, costs.warm(t0));
                }
                long c1 = cpuTimed ? cpuClock.nanos() : 0;
                costs.walked(taken, intervals, t0, System.nanoTime(), cpuTimed, c0, c1);
                reads.sampled(t0, memory.systemReads() - readsBefore);
            }
            unwalked.take(unwalkedFrames);
        } catch (OutOfMemoryError e) {
            run.heap().reach();
            pool.clear();
        } finally {
            costs.walkerEnded(cpuClock.nanos());
        }
    }

    /** Walks a sample of the application into the profile. */
    private void add(CapturedThread s) {
        int depth = emitter.build(s);
        // The set in force at the sample's own time, looked up by the sampler.
        depth = emitter.label(s.labelSet(), emitter.frames(), depth);
        emitter.add(emitter.frames(), depth, s.weight(), clock.epochNanos(s.time()));
    }

    /**
     * A sample of the profiler itself: counted, so that its CPU shows in the profile, but not walked — walking the
     * walker was a twentieth of its work on a one-thread workload, to show its own code.
     */
    private void addOwn(CapturedThread s) {
        int depth = 0;
        if (emitter.threadRoots()) {
            ownStack[depth++] = emitter.threadFrame((int) s.tid());
        }
        ownStack[depth++] = Frame.PROFILER;
        emitter.add(ownStack, depth, s.weight(), clock.epochNanos(s.time()));
    }

    /** Adds samples taken but not walked to the profile: under their thread, or alone, marked as such. */
    private final class UnwalkedFrames implements UnwalkedSamples.Visitor {
        private final Frame[] frames = new Frame[2];

        @Override
        public void unwalked(int tid, long count, boolean lost) {
            int depth = 0;
            if (emitter.threadRoots() && tid > 0) {
                frames[depth++] = emitter.threadFrame(tid);
            }
            frames[depth++] = lost ? Frame.LOST : Frame.DROPPED;
            emitter.add(frames, depth, count, clock.epochNanos(System.nanoTime()));
        }
    }
}
