package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The steady-state pair: async-profiler and mixflame on the saturated workload (two busy threads, one per core), in
 * pairs whose order alternates, so that a drift of a shared machine touches both alike, each run's throughput
 * counted after its warm-up; a pair's ratio is mixflame's rounds per second over async-profiler's.
 *
 * @param steady the runs' timing
 * @param pairs  each round's two runs, async-profiler's first
 */
record SteadyPairStudy(CostStudy.SteadyState steady, List<ChildRun[]> pairs) {

    /** Runs {@code rounds} pairs, the first async-profiler then mixflame, the next the other way round. */
    static SteadyPairStudy run(WorkloadRunner runner, int rounds, CostStudy.SteadyState steady)
            throws IOException, InterruptedException {
        List<ChildRun[]> pairs = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            ChildRun[] pair = new ChildRun[2];
            for (int k = 0; k < 2; k++) {
                Profiler p = (round + k) % 2 == 0 ? Profiler.ASYNC_PROFILER : Profiler.MIXFLAME;
                pair[p == Profiler.ASYNC_PROFILER ? 0 : 1] = runner.run(p, steady.command(), steady.seconds());
            }
            pairs.add(pair);
        }
        return new SteadyPairStudy(steady, pairs);
    }

    /** A run's rounds per second after the warm-up. */
    OptionalDouble rate(ChildRun run) {
        return run.succeeded() ? WorkloadOutput.steadyRoundsPerSecond(run.stdout(), steady.skipSeconds())
                : OptionalDouble.empty();
    }

    /** The pairs' ratios, mixflame's rate over async-profiler's, of the pairs where both ran. */
    double[] ratios() {
        return pairs.stream().mapToDouble(p -> {
            OptionalDouble a = rate(p[0]);
            OptionalDouble m = rate(p[1]);
            return a.isPresent() && m.isPresent() && a.getAsDouble() > 0 ? m.getAsDouble() / a.getAsDouble() : -1;
        }).filter(r -> r > 0).toArray();
    }

    /** The geometric mean of {@link #ratios}, or NaN when there is none. */
    double geometricMean() {
        double[] r = ratios();
        if (r.length == 0) {
            return Double.NaN;
        }
        double logs = 0;
        for (double x : r) {
            logs += Math.log(x);
        }
        return Math.exp(logs / r.length);
    }
}
