package io.mixflame.capture.perf;

import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * perf_events sampling of every thread of one process, as the Linux engines drive it from a sampler thread: the
 * events opened, their ring buffers drained into reused {@link RawSample}s, stack copies grown for threads that need
 * more. {@link PerCpuPerfCapture} shares a ring per CPU among all threads; {@link PerfCapture} gives each thread its
 * own. Not thread-safe.
 */
public interface SampleCapture extends AutoCloseable {
    /**
     * Opens the events.
     *
     * @param ownThreads threads of the profiler itself, sampled without a stack copy (counted, never walked)
     * @throws PerfCaptureUnavailableException when the kernel refuses; the message says why in one line
     */
    void start(int[] ownThreads) throws PerfCaptureUnavailableException;

    /** Whether samples carry kernel callchains. */
    boolean kernelFrames();

    /** The process's thread count now (a cheap test for started or ended threads), or -1. */
    int threadCount();

    /** Takes account of threads started or ended since the last call. */
    void refreshThreads();

    /**
     * The same, with the process's threads already listed by the caller: a capture that lists them itself uses that
     * listing rather than reading {@code /proc} again.
     */
    default void refreshThreads(Set<Integer> alive) {
        refreshThreads();
    }

    /** Whether thread {@code tid} is sampled now. */
    boolean sampling(int tid);

    /**
     * Gives thread {@code tid} a stack copy of {@code stackBytes}, whose walks need more of its stack than the copy
     * held; samples taken before are drained into {@code consumer} where the change needs it.
     *
     * @return whether its copy is now that large
     */
    boolean growStack(int tid, int stackBytes, Consumer<RawSample> consumer);

    /** Bytes of stack thread {@code tid}'s samples carry. */
    int stackBytes(int tid);

    /**
     * Hands every sample in the ring buffers to {@code consumer}; the sample object is reused.
     *
     * @return the number of samples delivered
     */
    int drain(Consumer<RawSample> consumer);

    /**
     * The metadata pages (perf's layout: data_head, data_tail) of the rings where samples wait for the drain, for a
     * watcher of how late their reading runs; none where the capture's buffers are of another kind. They stay mapped
     * until the capture closes.
     */
    default long[] waitingRings() {
        return new long[0];
    }

    /**
     * Hands samples to {@code consumer} while {@code room} says it has room for one more; a capture whose ring can
     * hold samples back leaves the rest there for the next drain, one that cannot (the kernel overwrites nothing but
     * stops writing when its ring is full) hands every sample over as {@link #drain(Consumer)} does.
     *
     * @return the number of samples delivered
     */
    default int drain(Consumer<RawSample> consumer, BooleanSupplier room) {
        return drain(consumer);
    }

    /**
     * Whether {@link #drain(Consumer, BooleanSupplier)} leaves samples in the ring when given no room (the thread
     * timers' ring, written by the sampled threads themselves; the per-CPU perf rings, which the kernel stops writing
     * when full): only then does waiting for room hand more over.
     */
    default boolean holdsBack() {
        return false;
    }

    /**
     * Has each drain from now on wait, a bounded time, for the records the kernel wrote up to the drain, where they
     * pass through a relay thread: for a reader that follows threads' states from them (the wall clock). Without it a
     * drain asks the relay to move what is new and reads what was moved, waiting for nothing.
     */
    default void drainUpToNow() {
    }

    /**
     * The time ({@code CLOCK_MONOTONIC}) before which every record the kernel wrote has been handed over by the drains
     * so far: a reader that counts time from the records (the wall clock's threads' states) counts no further, since
     * what happened after it may still wait in the rings. {@link Long#MAX_VALUE} where a drain hands over everything
     * written up to its start.
     */
    default long recordsCompleteAt() {
        return Long.MAX_VALUE;
    }

    /**
     * Waits at most {@code waitNanos} until the records the kernel wrote up to now can be drained, where they pass
     * through a relay thread (which may wait for a core on a busy machine): before a last drain.
     */
    default void awaitRecords(long waitNanos) {
    }

    /**
     * Called by the sampler as often as it looks at the threads (every 50 ms): a capture that can tell threads whose
     * samples are overdue has them taken.
     */
    default void catchUp() {
    }

    /**
     * Whether {@link #timeRunning} tells how long each thread has run: a capture with a ring per thread, whose
     * event's mapped page counts it.
     */
    default boolean tellsTimeRunning() {
        return false;
    }

    /**
     * How long thread {@code tid} has run while sampled, read without a system call, or -1 when it is not sampled or
     * the capture cannot tell ({@link #tellsTimeRunning}).
     */
    default long timeRunning(int tid) {
        return -1;
    }

    /** Samples delivered so far. */
    long samples();

    /** Samples the kernel reported lost (a full ring buffer). */
    long lost();

    /** Receives the kernel's name of a thread, as the thread is named. */
    interface ThreadNameListener {
        /** Thread {@code tid} is now called {@code name} (at most 15 characters). */
        void named(int tid, String name);
    }

    /**
     * Has the kernel's names of threads, as they are named, handed to {@code listener} by {@link #drain}; a capture
     * that cannot know them never calls it.
     */
    default void onThreadNamed(ThreadNameListener listener) {
    }

    /** Told which threads ran: each time one is switched onto or off a CPU, and when such news was lost. */
    interface SwitchListener {
        /** Switched onto a CPU. */
        int IN = 0;
        /** Switched off a CPU while still runnable: preempted, it waits for a CPU again. */
        int OUT_PREEMPTED = 1;
        /** Switched off a CPU to wait (a system call that blocks, a page fault, its end). */
        int OUT_BLOCKED = 2;

        /**
         * Thread {@code tid} was switched onto or off a CPU ({@link #IN}, {@link #OUT_PREEMPTED},
         * {@link #OUT_BLOCKED}) at {@code time} (the capture's clock, {@code CLOCK_MONOTONIC}).
         */
        void switched(int tid, int kind, long time);

        /** Records were lost (a full ring buffer): any thread may have run. */
        void lost();
    }

    /**
     * Asks, before {@link #start}, for every thread's switches onto and off CPUs, handed to {@code listener} by
     * {@link #drain}; a capture that cannot report them returns false and never calls it.
     */
    default boolean onThreadSwitched(SwitchListener listener) {
        return false;
    }

    /** Whether {@link #drain} reports threads' switches to a listener given with {@link #onThreadSwitched}. */
    default boolean reportsSwitches() {
        return false;
    }

    /** One line on what is mapped and sampled, for the cost note. */
    String describe();

    @Override
    void close();
}
