package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code labels} costs a service: {@code service --load}, whose handlers on the JDK's
 * {@code HttpServer} the agent weaves to set {@code endpoint} for every request, without a profiler, under mixflame
 * at 10 ms and under the same with {@code labels}, in turn in each repetition. The two mixflame runs swap places every
 * other repetition, so that neither always runs right after the baseline; the comparison that matters is between
 * them, paired within a repetition.
 *
 * @param runs    each setting's runs, the i-th of each from the i-th repetition
 * @param seconds how long each service run lasted
 * @param clients the load generator's client threads
 */
record LabelsStudy(Map<Setting, List<ChildRun>> runs, int seconds, int clients) {

    /** How the service runs. */
    enum Setting {
        /** No profiler: how fast the service is on its own. */
        NONE(Profiler.NONE, Sampling.CPU),
        /** mixflame at 10 ms, no labels. */
        MIXFLAME(Profiler.MIXFLAME, Sampling.CPU),
        /** The same with {@code labels}: every request's entry and exit recorded. */
        MIXFLAME_LABELS(Profiler.MIXFLAME, Sampling.CPU_LABELS);

        final Profiler profiler;
        final Sampling sampling;

        Setting(Profiler profiler, Sampling sampling) {
            this.profiler = profiler;
            this.sampling = sampling;
        }
    }

    /** Runs the study: {@code repetitions} times each setting. */
    static LabelsStudy run(WorkloadRunner runner, int repetitions, int seconds, int clients)
            throws IOException, InterruptedException {
        Map<Setting, List<ChildRun>> runs = new EnumMap<>(Setting.class);
        List<String> workload = List.of("service", "--load", "--seconds", Integer.toString(seconds), "--threads",
                Integer.toString(clients));
        for (int rep = 0; rep < repetitions; rep++) {
            List<Setting> order = rep % 2 == 0
                    ? List.of(Setting.NONE, Setting.MIXFLAME, Setting.MIXFLAME_LABELS)
                    : List.of(Setting.NONE, Setting.MIXFLAME_LABELS, Setting.MIXFLAME);
            for (Setting s : order) {
                runs.computeIfAbsent(s, k -> new ArrayList<>()).add(runner.run(s.profiler, s.sampling, workload,
                        seconds));
            }
        }
        return new LabelsStudy(runs, seconds, clients);
    }

    /** The setting's runs, in repetition order. */
    List<ChildRun> of(Setting s) {
        return runs.getOrDefault(s, List.of());
    }
}
