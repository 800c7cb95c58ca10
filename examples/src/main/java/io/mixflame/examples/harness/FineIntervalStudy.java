package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fixed work under async-profiler and mixflame sampling CPU every 1 ms, and without a profiler, in turn and
 * repeated: ten times the samples of the 10 ms runs, where a profiler that cannot keep up loses some and costs more.
 * JFR is left out: its {@code profile} settings sample every 10 ms.
 *
 * @param works       the workloads, each run for its fixed work
 * @param runs        per workload, the runs per profiler
 * @param repetitions how often each sequence ran
 */
record FineIntervalStudy(List<FixedWork> works, Map<String, PairedRuns> runs, int repetitions) {

    /** Runs the study. */
    static FineIntervalStudy run(WorkloadRunner runner, int repetitions, List<FixedWork> works)
            throws IOException, InterruptedException {
        Map<String, Map<Profiler, List<ChildRun>>> byWorkload = new LinkedHashMap<>();
        for (FixedWork w : works) {
            byWorkload.put(w.workload(), new EnumMap<>(Profiler.class));
        }
        for (int rep = 0; rep < repetitions; rep++) {
            for (FixedWork w : works) {
                for (Profiler p : profilers()) {
                    byWorkload.get(w.workload()).computeIfAbsent(p, k -> new ArrayList<>())
                            .add(runner.run(p, Sampling.CPU_1MS, w.command(), w.seconds()));
                }
            }
        }
        Map<String, PairedRuns> runs = new LinkedHashMap<>();
        byWorkload.forEach((w, r) -> runs.put(w, new PairedRuns(r)));
        return new FineIntervalStudy(List.copyOf(works), runs, repetitions);
    }

    /** The profilers it runs, the baseline first. */
    static List<Profiler> profilers() {
        List<Profiler> all = new ArrayList<>();
        for (Profiler p : Profiler.values()) {
            if (p.supports(Sampling.CPU_1MS)) {
                all.add(p);
            }
        }
        return all;
    }

    /** The mixflame runs of every workload. */
    List<ChildRun> mixflameRuns() {
        List<ChildRun> all = new ArrayList<>();
        runs.values().forEach(r -> all.addAll(r.of(Profiler.MIXFLAME)));
        return all;
    }
}
