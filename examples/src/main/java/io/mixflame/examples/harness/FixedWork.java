package io.mixflame.examples.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A workload run for a fixed amount of work ({@code --rounds N}), so that a profiler's cost shows as a longer run.
 *
 * @param workload the workload's name: {@code cpu} or {@code saturate}
 * @param options  the workload's options before {@code --rounds}, such as {@code --threads 1}
 * @param rounds   its rounds, calibrated to about {@code seconds} here without a profiler
 * @param seconds  how long the rounds take without a profiler, at least (whole seconds: runs' time limits)
 */
record FixedWork(String workload, List<String> options, long rounds, int seconds) {

    /** Work of a workload run with its default options. */
    FixedWork(String workload, long rounds, int seconds) {
        this(workload, List.of(), rounds, seconds);
    }

    /** The workload's command line after the jar. */
    List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(workload);
        command.addAll(options);
        command.add("--rounds");
        command.add(Long.toString(rounds));
        return command;
    }

    /** The command as the report names it: {@code saturate --threads 1 --rounds}. */
    String label() {
        return String.join(" ", command().subList(0, command().size() - 1));
    }

    /** How long the work took, in ms, as the run printed it. */
    OptionalDouble workMillis(ChildRun run) {
        return WorkloadOutput.workMillis(workload, run.stdout());
    }
}
