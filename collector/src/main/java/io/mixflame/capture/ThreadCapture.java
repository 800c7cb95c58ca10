package io.mixflame.capture;

import java.util.List;

/**
 * Captures one thread of a process on demand — its registers and a copy of the top of its stack — for thread dumps
 * and for the engine that samples by stopping threads ({@code engine.suspend}: ptrace on Linux, SuspendThread on
 * Windows): {@code /proc} and ptrace on Linux, SuspendThread and GetThreadContext on Windows. (The perf and timer
 * engines are driven otherwise: perf events and the threads' own signal handlers deliver their captures.) One capture
 * at a time.
 */
public interface ThreadCapture extends AutoCloseable {

    /**
     * Captures thread {@code tid} into {@code out}.
     *
     * @return how it was captured
     * @throws ThreadCaptureException when it could not be, with a one-line reason
     */
    CaptureMethod capture(int tid, CapturedThread out) throws ThreadCaptureException;

    /**
     * After the last capture was walked: whether the thread is still as captured. A capture that does not stop the
     * thread can be overtaken by it, and its walk is then to be retried.
     */
    default boolean stillAsCaptured(int tid) {
        return true;
    }

    /** The kernel's own frames of a thread, as text, where the system shows them; empty elsewhere. */
    default List<String> kernelFrames(int tid) {
        return List.of();
    }

    /**
     * Releases what is held for threads other than the first {@code n} of {@code alive} (they ended); a sampler
     * calls it when it lists the threads again. Captures that hold nothing per thread have nothing to do.
     */
    default void retainOnly(int[] alive, int n) {
    }

    @Override
    default void close() {
    }
}
