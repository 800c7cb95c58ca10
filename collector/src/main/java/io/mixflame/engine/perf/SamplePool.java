package io.mixflame.engine.perf;

import io.mixflame.capture.CapturedThread;
import io.mixflame.engine.CostNotes;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sample buffers between the sampler and the walker: the sampler copies each sample into a free buffer and
 * hands it over, the walker walks it and gives it back. Bounded, and grown only as far as the walker falls behind
 * (most processes never need more than a few buffers of 16 KiB; a buffer grows past that only when it first carries a
 * sample of a thread whose copy grew). The sampler side ({@link #take}, {@link #handOver}, {@link #hasRoom}) is the
 * sampler thread's, the walker side ({@link #next}, {@link #giveBack}) the walker's.
 */
final class SamplePool {
    /** The buffers kept for reuse after the warm-up, and the least bound. */
    static final int POOL = 128;
    /**
     * How far the walker may fall behind after the warm-up, in time: the samples every CPU the process may use takes
     * in this long, within {@link #WARM_POOL}. On a machine with many times more runnable threads than cores, the
     * walker (a Java thread) gets its fair share of a core and stops at every safepoint: at 50 times the cores it fell
     * more than 128 samples (0.6 s at 10 ms on 2 cores) behind, and in one run as root fell behind for most of 12 s
     * (1.5 s p50, 3.6 s p99) and dropped a fifth of the samples past 2 s, which the stop then had time to walk.
     * Samples wait rather than being dropped; the buffers past {@link #POOL} go back to the system as they come back.
     */
    static final long LAG_NANOS = 5_000_000_000L;
    /**
     * The bound in the first {@link CostNotes#WARM_UP_NANOS}. The walker starts cold (its classes loading, its code
     * interpreted, the modules' tables read) while the application's threads and the JIT's compile their own start,
     * and on a machine whose cores they keep busy it gets a fraction of one: at 1 ms on two busy threads it fell some
     * 500 samples behind in its first 400 ms, then caught up within 100 ms. Those samples are kept, up to 16 MB more
     * outside the heap, and walked late rather than dropped; the buffers past {@link #POOL} are let go as they come
     * back after the warm-up.
     */
    static final int WARM_POOL = POOL + 1024;

    /** Buffers back from the walker to the sampler, and samples from the sampler to the walker. */
    private final HandOffRing<CapturedThread> free = new HandOffRing<>(WARM_POOL);
    private final HandOffRing<CapturedThread> ready = new HandOffRing<>(WARM_POOL);
    /** Buffers in use or free: at most {@link #WARM_POOL} in the warm-up, then {@link #steadyBound}. */
    private final AtomicInteger pooled = new AtomicInteger();
    private final int stackBytes;
    private final long startNanos;
    /** The bound after the warm-up: {@link #LAG_NANOS} of samples, at least {@link #POOL}. */
    private final int steadyBound;

    /**
     * @param stackBytes the stack copy a new buffer holds; @param startNanos when sampling started; @param
     * samplesPerSecond how many samples the process's CPUs take a second at most
     */
    SamplePool(int stackBytes, long startNanos, long samplesPerSecond) {
        this.stackBytes = stackBytes;
        this.startNanos = startNanos;
        this.steadyBound = steadyBound(samplesPerSecond);
    }

    /** The bound after the warm-up for {@code samplesPerSecond}. */
    static int steadyBound(long samplesPerSecond) {
        long lag = Math.max(0, samplesPerSecond) * (LAG_NANOS / 1_000_000_000L);
        return (int) Math.max(POOL, Math.min(WARM_POOL, lag));
    }

    private int bound(long nanos) {
        return nanos - startNanos < CostNotes.WARM_UP_NANOS ? WARM_POOL : steadyBound;
    }

    /** Whether a sample drained now would find a buffer; the sampler's. */
    boolean hasRoom() {
        return !free.isEmpty() || pooled.get() < bound(System.nanoTime());
    }

    /** A buffer for a sample taken at {@code sampleNanos}, or null when the pool is at its bound; the sampler's. */
    CapturedThread take(long sampleNanos) {
        CapturedThread copy = free.poll();
        if (copy == null && pooled.get() < bound(sampleNanos)) {
            pooled.incrementAndGet();
            copy = CapturedThread.offHeap(stackBytes);
        }
        return copy;
    }

    /** Hands a filled buffer to the walker; the sampler's. */
    void handOver(CapturedThread sample) {
        ready.offer(sample);
    }

    /** The next sample to walk, or null; the walker's. */
    CapturedThread next() {
        return ready.poll();
    }

    /** Whether no sample waits for the walker. */
    boolean drained() {
        return ready.isEmpty();
    }

    /**
     * Gives a walked buffer back; after the warm-up ({@code warm}) the buffers past {@link #POOL} go back to the
     * system instead. The walker's.
     */
    void giveBack(CapturedThread sample, boolean warm) {
        if (warm && pooled.get() > POOL) {
            pooled.decrementAndGet();
        } else {
            free.offer(sample);
        }
    }

    /** Lets every buffer go: the heap is exhausted and the profiler gives way. */
    void clear() {
        ready.clear();
        free.clear();
    }
}
