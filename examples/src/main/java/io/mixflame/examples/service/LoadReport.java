package io.mixflame.examples.service;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** What the load generator's clients measured: latency per endpoint, in microseconds, and errors. */
public final class LoadReport {
    private final int threads;
    private final long measureFromNanos;
    private final long warmUpNanos;
    private final Map<Endpoint, Histogram> latencies = new EnumMap<>(Endpoint.class);
    private final LongAdder warmUpRequests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private long elapsedNanos;

    /**
     * @param measureFromNanos requests sent before this {@link System#nanoTime()} are warm-up and not measured
     * @param warmUpNanos      how long the warm-up is
     */
    LoadReport(int threads, long measureFromNanos, long warmUpNanos) {
        this.threads = threads;
        this.measureFromNanos = measureFromNanos;
        this.warmUpNanos = warmUpNanos;
        for (Endpoint e : Endpoint.values()) {
            latencies.put(e, new ConcurrentHistogram(3));
        }
    }

    void record(Endpoint endpoint, long sentNanos, long nanos) {
        if (sentNanos < measureFromNanos) {
            warmUpRequests.increment();
        } else {
            latencies.get(endpoint).recordValue(Math.max(1, nanos / 1000));
        }
    }

    void error() {
        errors.increment();
    }

    void finished(long endNanos) {
        elapsedNanos = Math.max(1, endNanos - measureFromNanos);
    }

    /** Successful requests to all endpoints after the warm-up. */
    public long requests() {
        return latencies.values().stream().mapToLong(Histogram::getTotalCount).sum();
    }

    /**
     * Prints a summary line ({@code load: … requests/s …}) and a markdown table of latency percentiles per
     * endpoint.
     */
    public void print(PrintStream out) {
        double seconds = elapsedNanos / 1e9;
        out.printf(Locale.ROOT, "load: %d client threads, %.1f s after %.1f s of warm-up (%d requests), %d requests,"
                        + " %.1f requests/s, %d errors%n", threads, seconds, warmUpNanos / 1e9, warmUpRequests.sum(),
                requests(), requests() / seconds, errors.sum());
        out.println("| endpoint | requests | p50 ms | p90 ms | p99 ms | max ms |");
        out.println("| --- | --- | --- | --- | --- | --- |");
        for (Endpoint e : Endpoint.values()) {
            Histogram h = latencies.get(e);
            out.printf(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.2f |%n", e.path(), h.getTotalCount(),
                    ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)), ms(h.getValueAtPercentile(99)),
                    ms(h.getMaxValue()));
        }
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }
}
