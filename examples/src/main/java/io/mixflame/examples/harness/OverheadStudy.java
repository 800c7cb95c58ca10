package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The overhead runs: {@code cpu --rounds N} (fixed work on one thread), {@code saturate --rounds N} (fixed work on
 * every core) and {@code service --load} (fixed time), each under every profiler in turn, none, async-profiler,
 * JFR, mixflame, and that sequence repeated, so that slow drifts of a shared machine touch every profiler alike.
 *
 * @param cpuWork        the cpu workload's rounds
 * @param saturateWork   the saturate workload's rounds
 * @param cpu            the cpu runs per profiler
 * @param saturate       the saturate runs per profiler
 * @param service        the service runs per profiler
 * @param serviceSeconds how long each service run lasted
 * @param clients        the load generator's client threads
 */
record OverheadStudy(FixedWork cpuWork, FixedWork saturateWork, PairedRuns cpu, PairedRuns saturate,
                     PairedRuns service, int serviceSeconds, int clients) {

    /** Runs the study. */
    static OverheadStudy run(WorkloadRunner runner, int repetitions, FixedWork cpuWork, FixedWork saturateWork,
                             int serviceSeconds, int clients) throws IOException, InterruptedException {
        Map<Profiler, List<ChildRun>> cpu = new EnumMap<>(Profiler.class);
        Map<Profiler, List<ChildRun>> saturate = new EnumMap<>(Profiler.class);
        Map<Profiler, List<ChildRun>> service = new EnumMap<>(Profiler.class);
        for (Profiler p : Profiler.values()) {
            cpu.put(p, new ArrayList<>());
            saturate.put(p, new ArrayList<>());
            service.put(p, new ArrayList<>());
        }
        for (int rep = 0; rep < repetitions; rep++) {
            for (Profiler p : Profiler.values()) {
                cpu.get(p).add(runner.run(p, cpuWork.command(), cpuWork.seconds()));
            }
            for (Profiler p : Profiler.values()) {
                saturate.get(p).add(runner.run(p, saturateWork.command(), saturateWork.seconds()));
            }
            for (Profiler p : Profiler.values()) {
                service.get(p).add(runner.run(p, List.of("service", "--load", "--seconds",
                        Integer.toString(serviceSeconds), "--threads", Integer.toString(clients)), serviceSeconds));
            }
        }
        return new OverheadStudy(cpuWork, saturateWork, new PairedRuns(cpu), new PairedRuns(saturate),
                new PairedRuns(service), serviceSeconds, clients);
    }
}
