package io.mixflame.engine;

import io.mixflame.capture.CostFigures;
import org.HdrHistogram.Histogram;

/**
 * What every engine's cost notes share: the start-up they set apart (class loading, the JIT and the symbol tables are
 * most of a short run's cost, so the figures after it are given apart), a histogram of nanoseconds as its median
 * and 99th percentile in microseconds, and the profiler's CPU time as a share of one core.
 */
public final class CostNotes {
    /** How long after the start a figure still counts as the start-up's. */
    public static final long WARM_UP_NANOS = 10_000_000_000L;
    /** The words that introduce the figures after {@link #WARM_UP_NANOS}. */
    public static final String AFTER_WARM_UP = "after the first 10 s";

    private CostNotes() {
    }

    /** A thread's CPU time as a share of one core over a time, such as {@code "3.64% of one core"}. */
    public static String ofOneCore(long cpuNanos, double elapsedNanos) {
        return FixedPoint.format(100.0 * cpuNanos / elapsedNanos, 2) + "% of one core";
    }

    /** Such as {@code "4.3 µs p50 / 20.1 µs p99"} ({@link CostFigures}); the caller holds whatever guards {@code h}. */
    public static String p50p99(Histogram h) {
        return CostFigures.p50p99(h);
    }
}
