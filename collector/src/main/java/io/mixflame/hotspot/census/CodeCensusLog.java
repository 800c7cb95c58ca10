package io.mixflame.hotspot.census;

/**
 * Censuses taken ahead of the walker by a thread that no safepoint stops, read back as a log: each batch, in order,
 * makes this census's rows those of one census taken at {@link #time()}. The walker applies every batch before it
 * walks, so the code cache's history holds the code as each census found it, even where the walker itself stood
 * still for seconds while the JIT freed and replaced code. Not thread-safe: the walker's.
 */
public interface CodeCensusLog extends CodeHeapCensus {
    /** Tells the census's thread the time of the sample being walked ({@code 0}: none, the walker waits for more). */
    void walking(long sampleTime);

    /**
     * Makes the next batch's census this one's rows ({@link #take} answers their count).
     *
     * @return false when no batch is waiting
     */
    boolean next();

    /** When the census of the batch {@link #next} applied was taken, on the monotonic clock. */
    long time();

    /**
     * When a census last found the rows as the batch before left them, before this batch's census; 0 when none did
     * (censuses that change nothing write no batch, yet say that the blobs were there at their time).
     */
    long unchangedAt();

    /** Gives the batch {@link #next} applied back to the log: its rows' header copies are no longer read. */
    void consumed();

    /** Censuses the thread has taken, cut short ones not counted. */
    long censuses();

    /** Censuses cut short by the JIT's changes under them. */
    long cutShort();

    /** Censuses dropped because the log was full (the walker that far behind) or their batch too large for it. */
    long dropped();

    /** Batches whose rows did not add up: the log's reader stopped trusting it. */
    long inconsistent();

    /** Stops the thread; with {@code free}, frees the log too (only when no walker can read it any more). */
    void stop(boolean free);
}
