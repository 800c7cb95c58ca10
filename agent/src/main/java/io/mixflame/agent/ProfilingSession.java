package io.mixflame.agent;

import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One run of profiling: the engine that samples and the bounded profile it fills. */
final class ProfilingSession implements io.mixflame.agent.http.ProfileWindowSource {
    private static final Logger LOG = LoggerFactory.getLogger(ProfilingSession.class);

    private final AgentOptions options;
    private final SamplingEngine engine;
    private final ProfileAccumulator profile;
    private final SampleFanOut fanOut;
    private final long startedMillis;
    private long periodStartMillis;
    private long periodStartNanos;

    private ProfilingSession(AgentOptions options, SamplingEngine engine, ProfileAccumulator profile,
                             SampleFanOut fanOut) {
        this.options = options;
        this.engine = engine;
        this.profile = profile;
        this.fanOut = fanOut;
        this.startedMillis = System.currentTimeMillis();
        this.periodStartMillis = startedMillis;
        this.periodStartNanos = System.nanoTime();
    }

    /** Starts sampling as the options say. */
    static ProfilingSession start(AgentOptions options) throws EngineUnavailableException {
        ProfileAccumulator profile = new ProfileAccumulator(ProfileAccumulator.DEFAULT_MAX_STACKS,
                ProfileAccumulator.DEFAULT_MAX_FRAMES, LOG::warn);
        SamplingSettings settings = options.samplingSettings();
        if (settings.times()) {
            profile.recordTimes();
        }
        SampleFanOut fanOut = new SampleFanOut(profile);
        InlinedFrameDetail.turnOn();
        SamplingEngine engine = EngineSelector.forChoice(options.engine(), options.event(), options.states())
                .start(settings, fanOut);
        return new ProfilingSession(options, engine, profile, fanOut);
    }

    AgentOptions options() {
        return options;
    }

    String engineName() {
        return engine.name();
    }

    long startedMillis() {
        return startedMillis;
    }

    /** The profile so far. */
    synchronized Profile snapshot() {
        return profile.snapshot(info());
    }

    /** The profile of the period that ends now; the next period starts empty. */
    synchronized Profile endPeriod() {
        Profile p = profile.snapshotAndReset(info());
        periodStartMillis = System.currentTimeMillis();
        periodStartNanos = System.nanoTime();
        return p;
    }

    /**
     * The samples of the next {@code nanos} only, in a profile of their own (the session's profile goes on):
     * blocks the calling thread for that long.
     */
    @Override
    public Profile window(long seconds) throws InterruptedException {
        return windowNanos(seconds * 1_000_000_000L);
    }

    Profile windowNanos(long nanos) throws InterruptedException {
        ProfileAccumulator window = new ProfileAccumulator(ProfileAccumulator.DEFAULT_MAX_STACKS,
                ProfileAccumulator.DEFAULT_MAX_FRAMES, LOG::warn);
        long start = System.currentTimeMillis();
        fanOut.open(window);
        try {
            Thread.sleep(nanos / 1_000_000L);
        } finally {
            fanOut.close(window);
        }
        List<String> notes = new ArrayList<>(engine.costNotes());
        return window.snapshot(new ProfileInfo(engine.name(), options.event().optionName(), options.intervalNanos(),
                start, nanos, notes, engine.modules()));
    }

    @Override
    public String engine() {
        return engine.name();
    }

    @Override
    public String event() {
        return options.event().optionName();
    }

    @Override
    public long intervalNanos() {
        return options.intervalNanos();
    }

    @Override
    public long samples() {
        return profile.totalSamples();
    }

    /** The engine's account of its own cost and losses, one line each. */
    @Override
    public List<String> costNotes() {
        return engine.costNotes();
    }

    /** Stops the engine; samples in flight are delivered first. */
    void stop() {
        engine.stop();
    }

    private ProfileInfo info() {
        List<String> notes = new ArrayList<>(engine.costNotes());
        return new ProfileInfo(engine.name(), options.event().optionName(), options.intervalNanos(),
                periodStartMillis, System.nanoTime() - periodStartNanos, notes, engine.modules());
    }
}
