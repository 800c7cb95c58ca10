package io.mixflame.agent;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.util.List;
import java.util.function.Consumer;

/**
 * The bounded profile of one event of a session ({@code cpu}, {@code wall}, {@code alloc} or {@code lock}) and the
 * fan-out its samples arrive through, so that HTTP windows can see them too.
 */
final class EventProfile {
    private final String event;
    private final long interval;
    private final ProfileAccumulator profile;
    private final SampleFanOut fanOut;
    private final Consumer<String> warnings;

    /**
     * @param event    the event's option name
     * @param interval the sampling interval (nanoseconds; bytes for {@code alloc}; the threshold for {@code lock})
     * @param times    whether the profile keeps when each sample was taken
     * @param warnings told once when the profile reaches its bound
     */
    EventProfile(String event, long interval, boolean times, Consumer<String> warnings) {
        this.event = event;
        this.interval = interval;
        this.warnings = warnings;
        this.profile = new ProfileAccumulator(ProfileAccumulator.DEFAULT_MAX_STACKS,
                ProfileAccumulator.DEFAULT_MAX_FRAMES, warnings);
        if (times) {
            profile.recordTimes();
        }
        this.fanOut = new SampleFanOut(profile);
    }

    String event() {
        return event;
    }

    long interval() {
        return interval;
    }

    /** Where the engine puts this event's samples. */
    SampleFanOut sink() {
        return fanOut;
    }

    long samples() {
        return profile.totalSamples();
    }

    Profile snapshot(ProfileInfo info) {
        return profile.snapshot(info);
    }

    Profile snapshotAndReset(ProfileInfo info) {
        return profile.snapshotAndReset(info);
    }

    /** The samples of the next {@code nanos} only, in a profile of their own; blocks that long. */
    Profile window(long nanos, String engine, List<String> notes) throws InterruptedException {
        ProfileAccumulator window = new ProfileAccumulator(ProfileAccumulator.DEFAULT_MAX_STACKS,
                ProfileAccumulator.DEFAULT_MAX_FRAMES, warnings);
        long start = System.currentTimeMillis();
        fanOut.open(window);
        try {
            Thread.sleep(nanos / 1_000_000L);
        } finally {
            fanOut.close(window);
        }
        return window.snapshot(new ProfileInfo(engine, event, interval, start, nanos, notes, List.of()));
    }
}
