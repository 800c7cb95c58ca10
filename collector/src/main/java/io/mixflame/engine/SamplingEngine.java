package io.mixflame.engine;

import io.mixflame.profile.NativeModule;
import io.mixflame.profile.SampleSink;
import java.util.List;

/**
 * A source of sampled stacks. An engine is started once, feeds every sample it takes into the accumulator it
 * was given, and is stopped once; it never throws out of {@link #stop()}.
 */
public interface SamplingEngine {

    /** Short name written into every output, such as {@code jfr} or {@code perf}. */
    String name();

    /**
     * Starts sampling in the background.
     *
     * @throws EngineUnavailableException when this engine cannot run here; the message says why in one line
     */
    void start(SamplingSettings settings, SampleSink target) throws EngineUnavailableException;

    /**
     * Whether the engine puts the labels of {@link SamplingSettings#labels()} into its samples (the engines that
     * sample this process's threads in it: perf and wall).
     */
    default boolean recordsLabels() {
        return false;
    }

    /** Stops sampling and delivers the samples still in flight; idempotent. */
    void stop();

    /** Facts about the engine's own cost and losses so far, one line each; empty when it measures none. */
    default List<String> costNotes() {
        return List.of();
    }

    /**
     * The native modules the samples so far ran in, with their full paths, the sampled process's main executable first
     * when it is known; empty when the engine knows none (JFR's samples name no modules).
     */
    default List<NativeModule> modules() {
        return List.of();
    }
}
