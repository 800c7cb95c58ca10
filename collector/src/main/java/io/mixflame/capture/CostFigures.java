package io.mixflame.capture;

import org.HdrHistogram.Histogram;

/**
 * How the profiler's cost notes give a time, defined once for the captures and the engines above them: microseconds
 * with one decimal, and a histogram of nanoseconds as its median and 99th percentile. Plain integer arithmetic, not
 * {@code String.format}, whose first use loads the JDK's formatter into the service's JVM.
 */
public final class CostFigures {
    private CostFigures() {
    }

    /** Nanoseconds as microseconds with one decimal, rounded half up, such as {@code "4.7"} for 4 650 ns. */
    public static String micros(long nanos) {
        long tenths = (Math.max(0, nanos) + 50) / 100;
        return tenths / 10 + "." + tenths % 10;
    }

    /** Such as {@code "4.3 µs p50 / 20.1 µs p99"}; the caller holds whatever guards {@code h}. */
    public static String p50p99(Histogram h) {
        return micros(h.getValueAtPercentile(50)) + " µs p50 / " + micros(h.getValueAtPercentile(99)) + " µs p99";
    }
}
