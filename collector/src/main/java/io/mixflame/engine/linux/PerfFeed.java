package io.mixflame.engine.linux;

import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.SampleCapture;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.process.linux.ShortSlice;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * The perf feed of the Linux engines (the cpu engine's sampler, the wall engine's): a capture's samples handed to one
 * consumer, the larger stack copies the walks asked for ({@link StackCopyGrowth}) applied between drains, and the
 * capture told when the process's threads changed. Driven by one thread, which owns the capture; the capture's
 * callbacks are this object rather than lambdas, each of which is a class the JVM spins in the service's start-up.
 */
public final class PerfFeed implements StackCopyGrowth.Applier, IntPredicate {
    /**
     * The draining thread's scheduling slice: it runs for well under this at each wake-up, and a short slice lets it
     * run soon after it wakes on a machine whose cores the application's threads keep busy, before the kernel's
     * buffers fill.
     */
    private static final long SLICE_NANOS = 100_000L;

    private final SampleCapture capture;
    private final Consumer<RawSample> consumer;
    private final StackCopyGrowth growth;

    /**
     * @param capture  the capture, opened
     * @param consumer where every sample goes, also those drained as a thread's events are reopened
     * @param growth   the copies asked for, by whichever thread walks
     */
    public PerfFeed(SampleCapture capture, Consumer<RawSample> consumer, StackCopyGrowth growth) {
        this.capture = capture;
        this.consumer = consumer;
        this.growth = growth;
    }

    /**
     * Asks the scheduler for the calling thread's short slice: called once by the thread that drains.
     *
     * @return 0, or the errno the kernel answered
     */
    public static int shortSlice() {
        return ShortSlice.request(SLICE_NANOS, 0);
    }

    public SampleCapture capture() {
        return capture;
    }

    /** Hands every sample in the capture's rings to the consumer; the number handed. */
    public int drain() {
        return capture.drain(consumer);
    }

    /** Hands samples to the consumer while {@code room} says it has room (see {@link SampleCapture#drain}). */
    public int drain(BooleanSupplier room) {
        return capture.drain(consumer, room);
    }

    /** Applies the larger copies asked for since the last call; a thread's old events drain into the consumer. */
    public void grow() {
        if (growth.hasPending()) {
            growth.takePending(this);
        }
    }

    /**
     * The process's threads changed, or may have: the capture takes account of them, from {@code alive} when the
     * caller listed them (else null), and the copies asked for by threads it no longer samples are forgotten.
     */
    public void threadsChanged(Set<Integer> alive) {
        if (alive != null) {
            capture.refreshThreads(alive);
        } else {
            capture.refreshThreads();
        }
        growth.retain(this);
    }

    /** Applies a larger stack copy a walk asked for. */
    @Override
    public void apply(int tid, int bytes) {
        capture.growStack(tid, bytes, consumer);
    }

    /** Whether thread {@code tid} is still sampled (the growth table keeps only those). */
    @Override
    public boolean test(int tid) {
        return capture.sampling(tid);
    }
}
