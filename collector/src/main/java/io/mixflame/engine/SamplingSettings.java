package io.mixflame.engine;

import java.util.Objects;

/**
 * What an engine is asked to sample.
 *
 * @param event         what to sample
 * @param intervalNanos the sampling period
 * @param threadRoots   whether every stack starts with a frame naming its thread
 */
public record SamplingSettings(ProfilingEvent event, long intervalNanos, boolean threadRoots) {
    public SamplingSettings {
        Objects.requireNonNull(event, "event");
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive");
        }
    }
}
