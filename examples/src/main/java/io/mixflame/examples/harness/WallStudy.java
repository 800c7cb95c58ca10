package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code idle} workload (hundreds of parked threads) under each profiler that samples wall-clock time, and
 * without one, in turn and repeated: with nothing else running, the extra process CPU time is the profiler's.
 *
 * @param runs          the runs per profiler (JFR has none: it has no wall-clock mode)
 * @param threads       the parked threads
 * @param warmUpSeconds how long each run waited before its measured window
 * @param seconds       the measured window
 */
record WallStudy(Map<Profiler, List<ChildRun>> runs, int threads, int warmUpSeconds, int seconds) {

    /** Runs the study. */
    static WallStudy run(WorkloadRunner runner, int repetitions, int threads, int warmUpSeconds, int seconds)
            throws IOException, InterruptedException {
        Map<Profiler, List<ChildRun>> runs = new EnumMap<>(Profiler.class);
        List<String> workload = List.of("idle", "--threads", Integer.toString(threads), "--warmup",
                Integer.toString(warmUpSeconds), "--seconds", Integer.toString(seconds));
        for (int rep = 0; rep < repetitions; rep++) {
            for (Profiler p : Profiler.values()) {
                if (p.supports(Sampling.WALL)) {
                    runs.computeIfAbsent(p, k -> new ArrayList<>())
                            .add(runner.run(p, Sampling.WALL, workload, warmUpSeconds + seconds));
                }
            }
        }
        return new WallStudy(runs, threads, warmUpSeconds, seconds);
    }
}
