package io.mixflame.engine.perf;

import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.engine.ThreadNameRecorder;
import io.mixflame.engine.linux.ThreadCpuClock;
import io.mixflame.process.linux.ProcThreadSelf;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The perf engine's names thread: names each thread the sampler saw for the first time, at once, and every thread of
 * the JVM every second (every five for a thousand threads); on a thread of its own, so that neither the sampler
 * (whose drains must stay short, or the kernel's buffers fill on a machine whose cores the application keeps busy)
 * nor the walker (which may be seconds behind) waits for it, and so that names are taken while their threads live.
 * Also the capture's listener for names the kernel tells.
 */
final class PerfNamer implements Runnable, SampleCapture.ThreadNameListener {
    private static final Logger LOG = LoggerFactory.getLogger(PerfNamer.class);
    /** Threads first seen that the names thread may be behind on. */
    static final int NEW_THREADS = 4096;
    /** How often every Java thread's name is read (renames, threads missed). */
    private static final long ALL_NAMES_NANOS = 1_000_000_000L;
    /** Threads whose names are looked over each second at most. */
    private static final int THREADS_NAMED_PER_SECOND = 200;

    private final PerfRun run;
    private final ThreadNameRecorder recorder;
    private final NewThreads newThreads;
    private final PerfEngineCosts costs;

    PerfNamer(PerfRun run, ThreadNameRecorder recorder, NewThreads newThreads, PerfEngineCosts costs) {
        this.run = run;
        this.recorder = recorder;
        this.newThreads = newThreads;
        this.costs = costs;
    }

    @Override
    public void named(int tid, String name) {
        recorder.kernelNamed(tid, name);
    }

    @Override
    public void run() {
        run.namerStarted(ProcThreadSelf.tid());
        if (!run.awaitOpened()) {
            return;
        }
        SampleCapture capture = run.capture();
        ThreadCpuClock cpuClock = new ThreadCpuClock();
        long lastAll = System.nanoTime() - ALL_NAMES_NANOS;
        long overflowedBefore = 0;
        int[] tids = new int[NEW_THREADS];
        int[] tries = new int[NEW_THREADS];
        int waiting = 0;
        try {
            while (run.running() && !run.heap().reached()) {
                // First what the threads told themselves: those named so need no read of the JVM's list.
                recorder.recordTold();
                int count = waiting;
                int tid;
                while (count < tids.length && (tid = newThreads.poll()) > 0) {
                    tids[count] = tid;
                    tries[count++] = 0;
                }
                waiting = count == 0 ? 0 : recorder.recordNew(tids, count, tries);
                long now = System.nanoTime();
                long overflowed = newThreads.overflowed();
                // Every second, every few seconds for a thousand threads: the JVM's list costs reads per thread.
                long every = ALL_NAMES_NANOS * Math.max(1, capture.threadCount() / THREADS_NAMED_PER_SECOND);
                if (now - lastAll >= every || overflowed != overflowedBefore) {
                    recorder.recordAll();
                    lastAll = now;
                    overflowedBefore = overflowed;
                }
                LockSupport.parkNanos(PerfSampler.THREAD_POLL_NANOS);
            }
        } catch (RuntimeException e) {
            LOG.debug("the names thread stopped: {}", e.toString());
        } catch (OutOfMemoryError e) {
            run.heap().reach();
        } finally {
            costs.namesEnded(cpuClock.nanos());
        }
    }
}
