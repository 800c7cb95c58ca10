package io.mixflame.examples.harness;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A workload run for a fixed amount of work ({@code --rounds N}), so that a profiler's cost shows as a longer run.
 *
 * @param workload the workload's name: {@code cpu} or {@code saturate}
 * @param rounds   its rounds, calibrated to about {@code seconds} here without a profiler
 * @param seconds  how long the rounds take without a profiler
 */
record FixedWork(String workload, long rounds, int seconds) {

    /** The workload's command line after the jar. */
    List<String> command() {
        return List.of(workload, "--rounds", Long.toString(rounds));
    }

    /** How long the work took, in ms, as the run printed it. */
    OptionalDouble workMillis(ChildRun run) {
        return WorkloadOutput.workMillis(workload, run.stdout());
    }
}
