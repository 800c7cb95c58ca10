package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The overhead runs: {@code cpu --rounds N} (fixed work) and {@code service --load} (fixed time), each under every
 * profiler in turn, none, async-profiler, JFR, mixflame, and that sequence repeated, so that slow drifts of a shared
 * machine touch every profiler alike.
 *
 * @param cpu            the cpu runs per profiler
 * @param service        the service runs per profiler
 * @param rounds         the cpu workload's rounds
 * @param serviceSeconds how long each service run lasted
 * @param clients        the load generator's client threads
 */
record OverheadStudy(Map<Profiler, List<ChildRun>> cpu, Map<Profiler, List<ChildRun>> service, long rounds,
                     int serviceSeconds, int clients) {

    /** Runs the study. */
    static OverheadStudy run(WorkloadRunner runner, int repetitions, long rounds, int cpuSeconds, int serviceSeconds,
                             int clients) throws IOException, InterruptedException {
        Map<Profiler, List<ChildRun>> cpu = new EnumMap<>(Profiler.class);
        Map<Profiler, List<ChildRun>> service = new EnumMap<>(Profiler.class);
        for (Profiler p : Profiler.values()) {
            cpu.put(p, new ArrayList<>());
            service.put(p, new ArrayList<>());
        }
        for (int rep = 0; rep < repetitions; rep++) {
            for (Profiler p : Profiler.values()) {
                cpu.get(p).add(runner.run(p, List.of("cpu", "--rounds", Long.toString(rounds)), cpuSeconds));
            }
            for (Profiler p : Profiler.values()) {
                service.get(p).add(runner.run(p, List.of("service", "--load", "--seconds",
                        Integer.toString(serviceSeconds), "--threads", Integer.toString(clients)), serviceSeconds));
            }
        }
        return new OverheadStudy(cpu, service, rounds, serviceSeconds, clients);
    }
}
