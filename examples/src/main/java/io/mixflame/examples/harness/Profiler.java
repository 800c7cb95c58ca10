package io.mixflame.examples.harness;

import java.nio.file.Path;
import java.util.List;

/** The profilers the harness compares, each told to sample as a study's {@link Sampling} says where it can be. */
enum Profiler {
    /** No profiler: the baseline every ratio is taken against. */
    NONE("none"),
    /** async-profiler's native agent, {@code event=cpu,interval=10ms}, collapsed output with frame kinds. */
    ASYNC_PROFILER("async-profiler"),
    /** JFR with its {@code profile} settings, whose Java execution sampling period is 10 ms. */
    JFR("JFR"),
    /** mixflame's agent, {@code event=cpu,interval=10ms}, with whatever engine it picks or is told. */
    MIXFLAME("mixflame");

    private final String label;

    Profiler(String label) {
        this.label = label;
    }

    /** The name in the report's tables. */
    String label() {
        return label;
    }

    /** The file the profiler writes, in a run's directory. */
    Path outputIn(Path runDir) {
        return switch (this) {
            case NONE -> null;
            case JFR -> runDir.resolve("profile.jfr");
            default -> runDir.resolve("profile.collapsed");
        };
    }

    /**
     * Whether it can sample that way: JFR samples no idle thread, so it has no wall-clock mode, and its
     * {@code profile} settings fix its period at 10 ms (and record allocations and locks besides, always); labels
     * are mixflame's alone.
     */
    boolean supports(Sampling sampling) {
        if (sampling == Sampling.CPU_LABELS) {
            return this == NONE || this == MIXFLAME;
        }
        return this != JFR || sampling == Sampling.CPU || sampling == Sampling.CPU_THREADS
                || sampling == Sampling.ALLOC || sampling == Sampling.LOCK;
    }

    /** The JVM options that start the profiler and make it write {@link #outputIn} at exit. */
    List<String> jvmOptions(ProfilerFiles files, Path runDir, String mixflameOptions, Sampling sampling) {
        if (!supports(sampling)) {
            throw new IllegalArgumentException(label + " cannot sample " + sampling);
        }
        Path out = outputIn(runDir);
        return switch (this) {
            case NONE -> List.of();
            // ann: both profilers mark Java frames with their kind's suffix, which FrameKind reads.
            case ASYNC_PROFILER -> List.of("-agentpath:" + files.asyncProfilerLibrary()
                    + "=start," + sampling.agentOptions() + ",ann,collapsed,file=" + out);
            case JFR -> List.of("-XX:StartFlightRecording=settings=profile,filename=" + out);
            case MIXFLAME -> List.of("-javaagent:" + files.mixflameAgent() + "=start," + sampling.agentOptions()
                    + ",ann,file=" + out + (mixflameOptions.isBlank() ? "" : "," + mixflameOptions));
        };
    }
}
