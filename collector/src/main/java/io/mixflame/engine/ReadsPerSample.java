package io.mixflame.engine;

import org.HdrHistogram.Histogram;

/**
 * How many reads of the target's memory (system calls: ReadProcessMemory, {@code process_vm_readv}) each sample
 * cost, for an engine's cost note. Under Wine every read is a round trip through wineserver, so their number, more
 * than the bytes they copy, is what a sample costs there. Counted from the reader's own counter before and after each
 * sample, without allocating; the mean takes in every read since the start (start-up, thread lists), the p50 only
 * those made while a sample was taken and walked.
 */
public final class ReadsPerSample {
    private static final long HIGHEST = 1_000_000L;

    private final Histogram all = new Histogram(HIGHEST, 2);
    private final Histogram warm = new Histogram(HIGHEST, 2);
    private final long startNanos;
    private final long startReads;
    private long samples;

    /**
     * @param startNanos when sampling started ({@link System#nanoTime()})
     * @param startReads the reader's count then; negative when it does not count
     */
    public ReadsPerSample(long startNanos, long startReads) {
        this.startNanos = startNanos;
        this.startReads = startReads;
    }

    /** Records one sample, begun at {@code sampleNanos}, that made {@code reads} reads. */
    public synchronized void sampled(long sampleNanos, long reads) {
        if (reads < 0) {
            return;
        }
        long r = Math.min(reads, HIGHEST);
        samples++;
        all.recordValue(r);
        if (sampleNanos - startNanos >= CostNotes.WARM_UP_NANOS) {
            warm.recordValue(r);
        }
    }

    /**
     * The note, such as {@code "4 reads p50 / 5.2 mean per sample, after the first 10 s 4 p50 / 6 p99"}; empty when
     * nothing was counted.
     *
     * @param readsNow the reader's count now
     */
    public synchronized String describe(long readsNow) {
        if (samples == 0 || startReads < 0 || readsNow < startReads) {
            return "";
        }
        String text = all.getValueAtPercentile(50) + " reads p50 / "
                + FixedPoint.format((double) (readsNow - startReads) / samples, 1) + " mean per sample";
        if (warm.getTotalCount() > 0) {
            text += ", " + CostNotes.AFTER_WARM_UP + " " + warm.getValueAtPercentile(50) + " p50 / "
                    + warm.getValueAtPercentile(99) + " p99";
        }
        return text;
    }
}
