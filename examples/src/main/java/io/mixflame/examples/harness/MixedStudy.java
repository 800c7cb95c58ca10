package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code mixed} workload once under each profiler: whether its stacks show native code below Java frames, and
 * Java again below that.
 *
 * @param runs    one run per profiler
 * @param seconds how long each ran
 */
record MixedStudy(Map<Profiler, ChildRun> runs, int seconds) {

    /** Runs the study. */
    static MixedStudy run(WorkloadRunner runner, int seconds) throws IOException, InterruptedException {
        Map<Profiler, ChildRun> runs = new EnumMap<>(Profiler.class);
        for (Profiler p : Profiler.values()) {
            runs.put(p, runner.run(p, List.of("mixed", "--seconds", Integer.toString(seconds)), seconds));
        }
        return new MixedStudy(runs, seconds);
    }
}
