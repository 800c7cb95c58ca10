package io.mixflame.engine.perf;

import io.mixflame.engine.CostNotes;
import io.mixflame.engine.FixedPoint;
import org.HdrHistogram.Histogram;

/**
 * What the perf engine's own threads cost, kept apart from the pipeline that drains and walks: time per drain and
 * per sample (all of them, and after the warm-up, when symbol tables are read), the walker's own CPU time for a
 * share of its samples, and the CPU time of the sampler, the walker and the names thread once they end. Recorded by
 * those threads, read by whoever asks for the cost note.
 */
final class PerfEngineCosts {
    /**
     * The walker's own CPU time is read for one sample in this many, after the warm-up: wall-clock time also counts
     * the walker descheduled in mid-walk (the application's threads keep every core busy), which is not work the walk
     * did. Not every sample: reading a thread's CPU clock is a system call of about a microsecond, twice per timed
     * sample (one in eight took 3–5% of the walker's time at 1 ms).
     */
    static final int CPU_TIMED_EVERY = 32;
    private static final long HIGHEST = 3_600_000_000L;

    private final long warmUpNanos;
    private final Histogram perSample = new Histogram(HIGHEST, 2);
    private final Histogram perDrain = new Histogram(HIGHEST, 2);
    private final Histogram perSampleWarm = new Histogram(HIGHEST, 2);
    private final Histogram cpuPerSampleWarm = new Histogram(HIGHEST, 2);
    /** The longest wait for a walk recorded as such; longer ones count as this. */
    private static final long LONGEST_LAG = 600_000_000_000L;
    /** From a sample's time to its walk's start: how long samples waited for the walker. */
    private final Histogram lag = new Histogram(LONGEST_LAG, 2);
    /** Samples walked, by the walker thread only. */
    private int walked;
    /** Intervals of CPU the walked samples stood for, the most in one, and the sum of their squares. */
    private long intervalsCounted;
    private long mostInOne;
    private long intervalsSquared;
    private volatile long startNanos;
    private volatile long samplerCpuNanos;
    private volatile long walkerCpuNanos;
    private volatile long namesCpuNanos;

    /** @param warmUpNanos how long after the start a sample still counts as the warm-up's */
    PerfEngineCosts(long warmUpNanos) {
        this.warmUpNanos = warmUpNanos;
    }

    /** Sampling starts now ({@link System#nanoTime()}). */
    void started(long nanos) {
        startNanos = nanos;
    }

    /** Whether {@code nanos} falls after the warm-up. */
    boolean warm(long nanos) {
        return nanos - startNanos >= warmUpNanos;
    }

    /** One drain of the sampler, from {@code t0} to {@code t1}. */
    void drained(long t0, long t1) {
        synchronized (perDrain) {
            perDrain.recordValue(Math.min(t1 - t0, HIGHEST));
        }
    }

    /** Whether the walker times its CPU for the sample it starts at {@code t0}; called once per sample. */
    boolean timesCpu(long t0) {
        return ++walked % CPU_TIMED_EVERY == 0 && warm(t0);
    }

    /**
     * One sample, taken at {@code taken} ({@link System#nanoTime()}'s clock, 0 when unknown), standing for
     * {@code intervals} intervals of CPU, walked from {@code t0} to {@code t1}, and when its CPU time was timed
     * ({@code cpuTimed}), the walker's CPU clock before ({@code c0}) and after ({@code c1}).
     */
    void walked(long taken, int intervals, long t0, long t1, boolean cpuTimed, long c0, long c1) {
        synchronized (perSample) {
            if (intervals > 0) {
                intervalsCounted += intervals;
                mostInOne = Math.max(mostInOne, intervals);
                intervalsSquared += (long) intervals * intervals;
            }
            if (taken != 0 && t0 - taken >= 0) {
                lag.recordValue(Math.min(t0 - taken, LONGEST_LAG));
            }
            perSample.recordValue(Math.min(t1 - t0, HIGHEST));
            if (warm(t0)) {
                perSampleWarm.recordValue(Math.min(t1 - t0, HIGHEST));
            }
            if (cpuTimed && c0 >= 0 && c1 >= c0) {
                cpuPerSampleWarm.recordValue(Math.min(c1 - c0, HIGHEST));
            }
        }
    }

    void samplerEnded(long cpuNanos) {
        samplerCpuNanos = Math.max(0, cpuNanos);
    }

    void walkerEnded(long cpuNanos) {
        walkerCpuNanos = Math.max(0, cpuNanos);
    }

    void namesEnded(long cpuNanos) {
        namesCpuNanos = Math.max(0, cpuNanos);
    }

    /**
     * The cost note's first line: samples, lost and dropped, the time per sample (p50 and p99), the profiler's
     * threads' share of one core once they ended, and the same after the warm-up with the walker's own CPU.
     */
    String summary(long samples, long lost, long dropped) {
        String perSampleText;
        String warmText;
        synchronized (perSample) {
            perSampleText = perSample.getTotalCount() == 0 ? "no samples walked" : percentiles(perSample);
            warmText = perSampleWarm.getTotalCount() == 0 ? ""
                    : "; " + CostNotes.AFTER_WARM_UP + ": " + percentiles(perSampleWarm);
            if (cpuPerSampleWarm.getTotalCount() > 0) {
                warmText += " (the walker's CPU: " + CostNotes.p50p99(cpuPerSampleWarm) + ", one sample in "
                        + CPU_TIMED_EVERY + " timed)";
            }
        }
        double elapsed = Math.max(1, System.nanoTime() - startNanos);
        long ownCpu = samplerCpuNanos + walkerCpuNanos + namesCpuNanos;
        String cpu = ownCpu == 0 ? "" : ", sampler " + CostNotes.ofOneCore(ownCpu, elapsed);
        String drains;
        synchronized (perDrain) {
            // How long the sampler took to empty the rings each time it ran: what samples waited on before a walk.
            drains = perDrain.getTotalCount() == 0 ? ""
                    : "; " + perDrain.getTotalCount() + " drains, " + CostNotes.p50p99(perDrain) + " each";
        }
        String waited;
        synchronized (perSample) {
            waited = lag.getTotalCount() == 0 ? "" : "; walked " + CostNotes.p50p99(lag) + " after they were taken";
        }
        return samples + " samples, " + lost + " lost, " + dropped + " dropped, " + perSampleText + cpu + warmText
                + drains + waited + clumping();
    }

    /**
     * Where samples stood for more than one interval each (the in-thread timers' kernel checks CPU timers only at its
     * tick, and a thread's CPU since its last sample is counted whole), how far the counts clump: a reader judging
     * shares by counts divides them by the average to get the independent samples they are worth. The average is
     * over intervals, the sum of the squares over the sum. Nothing is said where every sample stood for one.
     */
    private String clumping() {
        synchronized (perSample) {
            if (mostInOne <= 1) {
                return "";
            }
            return "; standing for " + intervalsCounted + " intervals of CPU (at most " + mostInOne + " in one, "
                    + FixedPoint.format((double) intervalsSquared / intervalsCounted, 2)
                    + " in an interval's sample on average)";
        }
    }

    private static String percentiles(Histogram h) {
        return CostNotes.p50p99(h) + " per sample";
    }
}
