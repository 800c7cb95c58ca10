package io.mixflame.engine;

import java.util.Objects;

/**
 * What an engine is asked to sample.
 *
 * @param event         what to sample
 * @param intervalNanos the sampling period
 * @param threadRoots   whether every stack starts with a frame naming its thread
 * @param lines         whether Java frames carry the source line each sample was at (frames of one method at
 *                      different lines are then different frames)
 */
public record SamplingSettings(ProfilingEvent event, long intervalNanos, boolean threadRoots, boolean lines) {

    /** Settings without line numbers. */
    public SamplingSettings(ProfilingEvent event, long intervalNanos, boolean threadRoots) {
        this(event, intervalNanos, threadRoots, false);
    }

    public SamplingSettings {
        Objects.requireNonNull(event, "event");
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive");
        }
    }
}
