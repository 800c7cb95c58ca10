package io.mixflame.engine;

import io.mixflame.capture.labels.LabelSource;
import java.util.Objects;

/**
 * What an engine is asked to sample.
 *
 * @param event         what to sample
 * @param intervalNanos the sampling period
 * @param threadRoots   whether every stack starts with a frame naming its thread
 * @param lines         whether Java frames carry the source line each sample was at (frames of one method at
 *                      different lines are then different frames)
 * @param times         whether the profile keeps when each sample was taken: engines always say when, and one
 *                      that samples in another process sends the times over only when asked
 * @param labels        where the sampled threads' labels are found (this process's recorder, or a sampled JVM's log
 *                      read from a helper process), for engines that put the labels in force at each sample into its
 *                      stack; null when labels are not recorded
 */
public record SamplingSettings(ProfilingEvent event, long intervalNanos, boolean threadRoots, boolean lines,
                               boolean times, LabelSource labels) {

    /** Settings without labels. */
    public SamplingSettings(ProfilingEvent event, long intervalNanos, boolean threadRoots, boolean lines,
                            boolean times) {
        this(event, intervalNanos, threadRoots, lines, times, null);
    }

    /** Settings without line numbers or times. */
    public SamplingSettings(ProfilingEvent event, long intervalNanos, boolean threadRoots) {
        this(event, intervalNanos, threadRoots, false, false, null);
    }

    public SamplingSettings {
        Objects.requireNonNull(event, "event");
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive");
        }
    }
}
