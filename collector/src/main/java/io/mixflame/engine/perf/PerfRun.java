package io.mixflame.engine.perf;

import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.engine.HeapExhaustion;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the perf engine's threads (sampler, walker, names) share of one run, and nothing else: whether it runs, the
 * capture and labels they wait for, their own kernel ids (whose samples are counted, not walked), and the heap's
 * exhaustion, on which they all give way. Each thread owns the rest of its state.
 */
final class PerfRun {
    private static final long OWN_THREADS_WAIT_MILLIS = 5_000;

    private volatile boolean running = true;
    /** Set once the sampler made its last drain: the walker goes on until then, and until the pool is walked. */
    private volatile boolean samplerDone;
    /** Set when an allocation of a profiler thread failed: all stop, and the pool is let go. */
    private final HeapExhaustion heap = new HeapExhaustion("perf");
    /** Counted down once the capture is open (or could not be): the threads wait for it. */
    private final CountDownLatch opened = new CountDownLatch(1);
    /** Counted down by the profiler's threads once their ids are known, before the capture opens. */
    private final CountDownLatch ownKnown;
    private volatile int samplerTid = -1;
    private volatile int walkerTid = -1;
    private volatile int namerTid = -1;
    /** Set before {@link #opened} is counted down, read after it is awaited. */
    private SampleCapture capture;
    private SampleLabeler labels;

    /** @param threads the profiler's threads that will say their ids (2, or 3 with the names thread) */
    PerfRun(int threads) {
        ownKnown = new CountDownLatch(threads);
    }

    boolean running() {
        return running;
    }

    /** Stops the run: the threads end after their last work. */
    void stop() {
        running = false;
    }

    /** Whether the run goes on for a walker: until the sampler's last drain, and while samples wait. */
    boolean walking(SamplePool pool) {
        return (running || !samplerDone || !pool.drained()) && !heap.reached();
    }

    void samplerDone() {
        samplerDone = true;
    }

    HeapExhaustion heap() {
        return heap;
    }

    void samplerStarted(int tid) {
        samplerTid = tid;
        ownKnown.countDown();
    }

    void walkerStarted(int tid) {
        walkerTid = tid;
        ownKnown.countDown();
    }

    void namerStarted(int tid) {
        namerTid = tid;
        ownKnown.countDown();
    }

    /** Whether {@code tid} is one of the profiler's threads. */
    boolean own(long tid) {
        return tid == samplerTid || tid == walkerTid || tid == namerTid;
    }

    /** The kernel ids of the profiler's threads, once they have started (those known after a bounded wait). */
    int[] ownThreads() {
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

    /** The capture is open: the threads may begin. */
    void opened(SampleCapture capture, SampleLabeler labels) {
        this.capture = capture;
        this.labels = labels;
        opened.countDown();
    }

    /** The capture could not be opened: the threads, waiting for it, end. */
    void abandon() {
        running = false;
        opened.countDown();
    }

    /** Waits for the capture; false when the run was abandoned meanwhile. */
    boolean awaitOpened() {
        try {
            opened.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return running && capture != null;
    }

    /** The capture, once {@link #awaitOpened} said it is open. */
    SampleCapture capture() {
        return capture;
    }

    /** The labeler, once {@link #awaitOpened} said the capture is open; null when labels are not recorded. */
    SampleLabeler labels() {
        return labels;
    }
}
