package io.mixflame.examples.harness;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * The runs of one workload per profiler, the i-th of each from the same repetition, so that a profiler's run can be
 * paired with the run without a profiler next to it: pairing runs that ran minutes apart at most cancels most of a
 * shared machine's slow drifts.
 *
 * @param runs the runs per profiler in repetition order; {@link Profiler#NONE}'s are the baseline
 */
record PairedRuns(Map<Profiler, List<ChildRun>> runs) {

    /** The profiler's runs, or none. */
    List<ChildRun> of(Profiler p) {
        return runs.getOrDefault(p, List.of());
    }

    /** The figure over the profiler's runs that succeeded and printed it. */
    Measurements values(Profiler p, Function<ChildRun, OptionalDouble> figure) {
        return WorkloadRunStats.measure(of(p), figure);
    }

    /** Per repetition, {@code figure(p's run) / figure(the run without a profiler)}. */
    Measurements ratios(Profiler p, Function<ChildRun, OptionalDouble> figure) {
        return ratios(p, Profiler.NONE, figure);
    }

    /** Per repetition, {@code figure(p's run) / figure(baseline's run)}. */
    Measurements ratios(Profiler p, Profiler baseline, Function<ChildRun, OptionalDouble> figure) {
        return paired(p, baseline, figure, (a, b) -> ReportNumbers.divide(a, b));
    }

    /** Per repetition, {@code figure(p's run) − figure(the run without a profiler)}. */
    Measurements differences(Profiler p, Function<ChildRun, OptionalDouble> figure) {
        return differences(p, Profiler.NONE, figure);
    }

    /** Per repetition, {@code figure(p's run) − figure(baseline's run)}. */
    Measurements differences(Profiler p, Profiler baseline, Function<ChildRun, OptionalDouble> figure) {
        return paired(p, baseline, figure, (a, b) -> a.isPresent() && b.isPresent()
                ? OptionalDouble.of(a.getAsDouble() - b.getAsDouble()) : OptionalDouble.empty());
    }

    private Measurements paired(Profiler p, Profiler against, Function<ChildRun, OptionalDouble> figure,
                                BinaryOperator<OptionalDouble> combine) {
        List<ChildRun> mine = of(p);
        List<ChildRun> baseline = of(against);
        Measurements result = new Measurements();
        for (int rep = 0; rep < Math.min(mine.size(), baseline.size()); rep++) {
            ChildRun a = mine.get(rep);
            ChildRun b = baseline.get(rep);
            if (a.succeeded() && b.succeeded()) {
                combine.apply(figure.apply(a), figure.apply(b)).ifPresent(result::add);
            }
        }
        return result;
    }
}
