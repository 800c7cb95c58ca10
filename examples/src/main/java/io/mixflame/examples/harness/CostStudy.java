package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a profiler costs the service it runs in: a short job (fixed work of about a second and a half on
 * one thread, where start-up and the JIT's queue dominate), saturated fixed work (every core busy) and a steady
 * state (every core busy for a fixed time, throughput counted per window and compared after the warm-up). Each
 * repetition runs none, async-profiler, JFR and mixflame in turn on each, so that a shared machine's drifts touch
 * every profiler alike; every run also prints its peak RSS, live heap at exit and the JIT's compilations.
 *
 * @param shortJob      the short job's work
 * @param saturatedWork the saturated fixed work
 * @param steady        the steady state's windows
 * @param shortRuns     the short job's runs per profiler
 * @param saturatedRuns the saturated runs per profiler
 * @param steadyRuns    the steady-state runs per profiler
 */
record CostStudy(FixedWork shortJob, FixedWork saturatedWork, SteadyState steady, PairedRuns shortRuns,
                 PairedRuns saturatedRuns, PairedRuns steadyRuns) {

    /**
     * The steady-state runs' timing.
     *
     * @param seconds       each run's length
     * @param windowSeconds the length of a window
     * @param skipSeconds   the windows that end by then are the warm-up, not counted
     */
    record SteadyState(int seconds, int windowSeconds, int skipSeconds) {
        /** The workload's command line after the jar. */
        List<String> command() {
            return List.of("saturate", "--seconds", Integer.toString(seconds), "--window", Integer.toString(windowSeconds));
        }
    }

    /** Runs the study: {@code repetitions} times every profiler on each of the three. */
    static CostStudy run(WorkloadRunner runner, int repetitions, FixedWork shortJob, FixedWork saturatedWork,
                         SteadyState steady) throws IOException, InterruptedException {
        Map<Profiler, List<ChildRun>> shortRuns = perProfiler();
        Map<Profiler, List<ChildRun>> saturatedRuns = perProfiler();
        Map<Profiler, List<ChildRun>> steadyRuns = perProfiler();
        for (int rep = 0; rep < repetitions; rep++) {
            for (Profiler p : Profiler.values()) {
                shortRuns.get(p).add(runner.run(p, shortJob.command(), shortJob.seconds()));
            }
            for (Profiler p : Profiler.values()) {
                saturatedRuns.get(p).add(runner.run(p, saturatedWork.command(), saturatedWork.seconds()));
            }
            for (Profiler p : Profiler.values()) {
                steadyRuns.get(p).add(runner.run(p, steady.command(), steady.seconds()));
            }
        }
        return new CostStudy(shortJob, saturatedWork, steady, new PairedRuns(shortRuns), new PairedRuns(saturatedRuns),
                new PairedRuns(steadyRuns));
    }

    private static Map<Profiler, List<ChildRun>> perProfiler() {
        Map<Profiler, List<ChildRun>> runs = new EnumMap<>(Profiler.class);
        for (Profiler p : Profiler.values()) {
            runs.put(p, new ArrayList<>());
        }
        return runs;
    }
}
