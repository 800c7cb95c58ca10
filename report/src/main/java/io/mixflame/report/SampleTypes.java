package io.mixflame.report;

import io.mixflame.profile.ProfileInfo;

/**
 * The names of a pprof profile's two sample types for an event: what a sample counts and what its weight is.
 * Allocation and lock profiles take the names Go's runtime gives its {@code allocs} and {@code mutex} profiles, so
 * that {@code go tool pprof} and the viewers built on it show them as such; cpu and wall profiles keep mixflame's
 * {@code samples/count} and {@code <event>/nanoseconds}.
 *
 * @param countType  the type of the first value, counted
 * @param weightType the type of the second value, the default
 * @param weightUnit the second value's unit
 */
record PprofSampleTypes(String countType, String weightType, String weightUnit) {

    static PprofSampleTypes of(String event) {
        return switch (event) {
            case ProfileInfo.ALLOC -> new PprofSampleTypes("alloc_objects", "alloc_space", "bytes");
            case ProfileInfo.LOCK -> new PprofSampleTypes("contentions", "delay", "nanoseconds");
            default -> new PprofSampleTypes("samples", event, "nanoseconds");
        };
    }
}
