package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code rocks} workload (RocksDB, a real JNI library with threads of its own) under no profiler,
 * async-profiler and mixflame in turn, each profile with its threads named: how whole the stacks through the
 * library are, how its code without symbols is named, whether its own threads are seen, and at what cost.
 * JFR is left out: it records no native frames.
 *
 * @param runs        each profiler's runs, in the order they ran
 * @param seconds     how long each ran
 */
record JniLibraryStudy(Map<Profiler, List<ChildRun>> runs, int seconds) {
    static final List<Profiler> PROFILERS = List.of(Profiler.NONE, Profiler.ASYNC_PROFILER, Profiler.MIXFLAME);

    /** Runs the study: {@code repetitions} times none, async-profiler, mixflame. */
    static JniLibraryStudy run(WorkloadRunner runner, int repetitions, int seconds)
            throws IOException, InterruptedException {
        Map<Profiler, List<ChildRun>> runs = new EnumMap<>(Profiler.class);
        for (int r = 0; r < repetitions; r++) {
            for (Profiler p : PROFILERS) {
                runs.computeIfAbsent(p, k -> new ArrayList<>()).add(runner.run(p, Sampling.CPU_THREADS,
                        List.of("rocks", "--seconds", Integer.toString(seconds)), seconds));
            }
        }
        return new JniLibraryStudy(runs, seconds);
    }
}
