package io.mixflame.examples.harness;

import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Function;

/** Figures of single runs, and collecting one figure over the successful runs of a profiler. */
final class WorkloadRunStats {
    private WorkloadRunStats() {
    }

    /** The figure over the runs that succeeded and printed it. */
    static Measurements measure(List<ChildRun> runs, Function<ChildRun, OptionalDouble> figure) {
        Measurements m = new Measurements();
        for (ChildRun r : runs) {
            if (r.succeeded()) {
                figure.apply(r).ifPresent(m::add);
            }
        }
        return m;
    }

    /** The whole process's CPU time in ms, from the harness's {@code cutime + cstime}. */
    static OptionalDouble processCpuMillis(ChildRun r) {
        return OptionalDouble.of(r.cpuMillis());
    }

    /** From JVM start to exit, in ns. */
    static OptionalDouble wallNanos(ChildRun r) {
        return OptionalDouble.of(r.wallNanos());
    }

    /** {@code service --load}: requests per second after the warm-up. */
    static OptionalDouble requestsPerSecond(ChildRun r) {
        return WorkloadOutput.requestsPerSecond(r.stdout());
    }

    /** Peak RSS in kB, when the run printed it. */
    static OptionalDouble peakRssKb(ChildRun r) {
        OptionalDouble kb = WorkloadOutput.peakRssKb(r.stdout());
        return kb.isPresent() && kb.getAsDouble() > 0 ? kb : OptionalDouble.empty();
    }

    /** The heap a full collection left at the run's end, in kB, when the run printed it. */
    static OptionalDouble liveHeapKb(ChildRun r) {
        return WorkloadOutput.liveHeapKb(r.stdout());
    }

    /**
     * The whole process's CPU time over its measured requests per second: proportional to CPU time per request,
     * since every service run measures for the same time, which is all a ratio between runs needs.
     */
    static OptionalDouble cpuPerRequest(ChildRun r) {
        OptionalDouble rps = requestsPerSecond(r);
        return rps.isPresent() && rps.getAsDouble() > 0 ? OptionalDouble.of(r.cpuMillis() / rps.getAsDouble())
                : OptionalDouble.empty();
    }
}
