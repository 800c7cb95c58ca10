package io.mixflame.examples;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Profiles a workload in periods until the samples a test judges reach the count its margins need, within a time
 * bound: how many samples a period gives depends on the machine (under Wine a profiler keeps a third of its ticks on
 * one machine and most on another), so a test that expects a count from a fixed duration tests the machine's speed,
 * not the profile. The first period has the length asked for; each further one is sized from the rate seen so far.
 * Where the bound is reached first, the failure says what rate the profiler managed and why that was too few.
 */
public final class ProfilePeriods {
    private static final int MOST_PERIODS = 8;

    /** One period of profiling: profiles the workload for about {@code length} and returns the profile's file. */
    @FunctionalInterface
    public interface Period {
        Path profile(int index, Duration length) throws Exception;
    }

    /** The profiles taken and how long they profiled. */
    public record Collected(List<Path> profiles, long samples, Duration profiled) {
        /** Every period's samples taken together. */
        public CollapsedShares shares() throws java.io.IOException {
            return CollapsedShares.read(profiles);
        }
    }

    private final String what;
    private final long needed;
    private final Duration bound;
    private final long askedPerSecond;
    private Duration shortest;

    /**
     * @param what           the samples counted, for the failure's message ("samples in alpha, beta and gamma")
     * @param needed         how many the test needs ({@link CollapsedShares#samplesForMargin})
     * @param bound          how long all periods together may profile
     * @param askedPerSecond the samples per second of one busy thread the interval asks for (100 at 10 ms)
     */
    public ProfilePeriods(String what, long needed, Duration bound, long askedPerSecond) {
        this.what = what;
        this.needed = needed;
        this.bound = bound;
        this.askedPerSecond = askedPerSecond;
    }

    /**
     * Profiles period after period until {@code counted} gives {@code needed} samples over all of them.
     *
     * @param first   the first period's length
     * @param counted the samples a profile holds of what the test judges
     * @throws AssertionError when the bound or the number of periods is reached first
     */
    public Collected collect(Duration first, Counter counted, Period period) throws Exception {
        List<Path> profiles = new ArrayList<>();
        long samples = 0;
        Duration profiled = Duration.ZERO;
        Duration length = first;
        // No period shorter than the first: each pays the start-up of its run (the JVM's, the profiler's), so
        // many short ones would spend their time starting.
        shortest = first;
        while (samples < needed) {
            if (profiles.size() == MOST_PERIODS || profiled.compareTo(bound) >= 0) {
                throw new AssertionError(tooFew(samples, profiled, profiles.size()));
            }
            Path profile = period.profile(profiles.size(), length);
            profiles.add(profile);
            long these = counted.count(profile);
            samples += these;
            profiled = profiled.plus(length);
            System.out.printf("%s: period %d of %d s: %d %s (%d of %d needed)%n", profile.getFileName(),
                    profiles.size(), length.toSeconds(), these, what, samples, needed);
            length = next(samples, profiled, length);
        }
        return new Collected(List.copyOf(profiles), samples, profiled);
    }

    /** The samples of what the test judges in one profile's file. */
    @FunctionalInterface
    public interface Counter {
        long count(Path profile) throws java.io.IOException;
    }

    private Duration next(long samples, Duration profiled, Duration last) {
        Duration left = bound.minus(profiled);
        // At most four times the last period: a first period spent mostly on start-up (the profiler's and the
        // workload's) gives a rate far below the steady one, which would ask for a needlessly long second.
        Duration longest = last.multipliedBy(4);
        double perSecond = samples / seconds(profiled);
        // A quarter more than the rate so far asks for, so that a slower period rarely needs one more.
        long wanted = samples == 0 ? Long.MAX_VALUE / 4 : (long) Math.ceil(1.25 * (needed - samples) / perSecond);
        Duration length = Duration.ofSeconds(Math.max(Math.min(wanted, longest.toSeconds()), shortest.toSeconds()));
        return length.compareTo(left) > 0 && left.compareTo(shortest) >= 0 ? left : length;
    }

    private String tooFew(long samples, Duration profiled, int periods) {
        double perSecond = profiled.isZero() ? 0 : samples / seconds(profiled);
        return String.format("only %d %s in %d s of profiling over %d periods: %.1f per second, where the interval "
                        + "asks for %d per second of a busy thread; at that rate the %d that the test's margins need "
                        + "would take %s. The profiler falls behind its interval on this machine (see the cost notes' "
                        + "ticks kept of those asked for): a cost problem, but too few samples to judge the profile",
                samples, what, profiled.toSeconds(), periods, perSecond, askedPerSecond, needed,
                perSecond == 0 ? "forever" : Math.round(needed / perSecond) + " s");
    }

    private static double seconds(Duration d) {
        return Math.max(1e-3, d.toMillis() / 1000.0);
    }
}
