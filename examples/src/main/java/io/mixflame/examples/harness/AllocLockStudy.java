package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What allocation and lock profiling cost: the {@code alloc} workload (two threads allocating 4 KB arrays
 * as fast as they can) under each profiler's allocation profiling, and the {@code lock} workload (eight threads
 * contending for a monitor and a {@code ReentrantLock}) under each one's lock profiling, none, async-profiler, JFR and
 * mixflame in turn in each repetition. JFR runs its {@code profile} settings, which record allocations and locks
 * (and much else) in every run.
 *
 * @param alloc   the {@code alloc} runs per profiler
 * @param lock    the {@code lock} runs per profiler
 * @param seconds how long each ran
 */
record AllocLockStudy(Map<Profiler, List<ChildRun>> alloc, Map<Profiler, List<ChildRun>> lock, int seconds) {

    /** Runs the study: {@code repetitions} times every profiler on each workload. */
    static AllocLockStudy run(WorkloadRunner runner, int repetitions, int seconds)
            throws IOException, InterruptedException {
        Map<Profiler, List<ChildRun>> alloc = new EnumMap<>(Profiler.class);
        Map<Profiler, List<ChildRun>> lock = new EnumMap<>(Profiler.class);
        List<String> time = List.of("--seconds", Integer.toString(seconds));
        for (int rep = 0; rep < repetitions; rep++) {
            for (Profiler p : Profiler.values()) {
                alloc.computeIfAbsent(p, k -> new ArrayList<>()).add(runner.run(p, Sampling.ALLOC,
                        concat("alloc", time), seconds));
            }
            for (Profiler p : Profiler.values()) {
                lock.computeIfAbsent(p, k -> new ArrayList<>()).add(runner.run(p, Sampling.LOCK,
                        concat("lock", time), seconds));
            }
        }
        return new AllocLockStudy(alloc, lock, seconds);
    }

    private static List<String> concat(String workload, List<String> args) {
        List<String> all = new ArrayList<>(args.size() + 1);
        all.add(workload);
        all.addAll(args);
        return all;
    }
}
