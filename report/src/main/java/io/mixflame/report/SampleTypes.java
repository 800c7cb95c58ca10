package io.mixflame.report;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;

/**
 * What a profile's samples hold, as pprof and OpenTelemetry's profiles name it: the count of samples, their weight
 * when the profile has weights, and the period. Allocation and lock profiles take the names Go's runtime gives its
 * {@code allocs} and {@code mutex} profiles, so that {@code go tool pprof} and the viewers built on it show them as
 * such ({@code alloc_objects/count} and {@code alloc_space/bytes}, {@code contentions/count} and
 * {@code delay/nanoseconds}); cpu and wall profiles keep mixflame's {@code samples/count} and
 * {@code <event>/nanoseconds}.
 *
 * <p>A profile read from a file that has counts only (collapsed without mixflame's header, an HTML page, a JFR file
 * without an interval) has no weight type: a weight would be all zeros, and as the default type viewers such as
 * speedscope would show nothing. Its period is then 1 sample; a weighed profile's period is its sampling interval in
 * the weight's type.
 *
 * @param count      the first value's type, counted
 * @param weight     the second value's type, the default; null for a profile of counts only
 * @param periodType the period's type
 * @param period     the period, in {@code periodType}'s unit
 */
record SampleTypes(ValueType count, ValueType weight, ValueType periodType, long period) {

    /** A value's type and unit. */
    record ValueType(String type, String unit) {
    }

    static SampleTypes of(Profile profile) {
        ProfileInfo info = profile.info();
        ValueType count;
        ValueType weight;
        switch (info.event()) {
            case ProfileInfo.ALLOC -> {
                count = new ValueType("alloc_objects", "count");
                weight = new ValueType("alloc_space", "bytes");
            }
            case ProfileInfo.LOCK -> {
                count = new ValueType("contentions", "count");
                weight = new ValueType("delay", "nanoseconds");
            }
            default -> {
                count = new ValueType("samples", "count");
                weight = new ValueType(info.event(), "nanoseconds");
            }
        }
        boolean weighed = profile.totalWeightNanos() > 0 || profile.totalSamples() == 0;
        return weighed ? new SampleTypes(count, weight, weight, info.intervalNanos())
                : new SampleTypes(count, null, new ValueType("samples", "count"), 1);
    }

    /** Whether the samples have weights. */
    boolean weighed() {
        return weight != null;
    }

    /** The type viewers show first: the weight's, else the count's. */
    ValueType defaultType() {
        return weighed() ? weight : count;
    }
}
