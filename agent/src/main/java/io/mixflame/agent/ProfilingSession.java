package io.mixflame.agent;

import io.mixflame.agent.http.ProfileWindowSource;
import io.mixflame.agent.labels.LabelCapture;
import io.mixflame.agent.labels.LabelOption;
import io.mixflame.agent.labels.TraceOption;
import io.mixflame.agent.push.PushCounters;
import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.jfr.JdkEventSettings;
import io.mixflame.engine.jfr.JdkEventStream;
import io.mixflame.engine.jfr.JdkEvents;
import io.mixflame.profile.Durations;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of profiling: the engine that samples cpu or wall-clock time, the stream of the JDK's allocation and lock
 * events, each where asked, and one bounded profile per event.
 */
final class ProfilingSession implements ProfileWindowSource {
    private static final Logger LOG = LoggerFactory.getLogger(ProfilingSession.class);
    /** Warnings of the profiles, as a consumer: a class rather than {@code LOG::warn}, spun by the JVM at start-up. */
    private static final Consumer<String> WARN = new Consumer<>() {
        @Override
        public void accept(String message) {
            LOG.warn(message);
        }
    };
    /** The engine name of allocation and lock profiles: JFR's events, streamed in-process. */
    static final String JDK_EVENTS_ENGINE = "jfr";

    private final AgentOptions options;
    private final SamplingEngine engine;
    private final JdkEventStream jdkEvents;
    /** The labels the engine puts into its samples; null when not recorded. */
    private final LabelCapture labels;
    private final List<EventProfile> profiles;
    private final long startedMillis;
    private long periodStartMillis;
    private long periodStartNanos;
    /** What the session's pushes did so far, one cost note; null when nothing is pushed. */
    private volatile PushCounters pushes;

    private ProfilingSession(AgentOptions options, SamplingEngine engine, JdkEventStream jdkEvents,
                             LabelCapture labels, List<EventProfile> profiles) {
        this.options = options;
        this.engine = engine;
        this.jdkEvents = jdkEvents;
        this.labels = labels;
        this.profiles = List.copyOf(profiles);
        this.startedMillis = System.currentTimeMillis();
        this.periodStartMillis = startedMillis;
        this.periodStartNanos = System.nanoTime();
    }

    /**
     * Starts sampling as the options say. Where allocation or lock profiling cannot run (no {@code jdk.jfr}), it is
     * refused with one line and the cpu or wall profile goes on; when that was all that was asked, nothing starts.
     */
    static ProfilingSession start(AgentOptions options) throws EngineUnavailableException {
        boolean times = options.recordsTimes();
        List<EventProfile> profiles = new ArrayList<>(3);
        SamplingEngine engine = null;
        JdkEventSettings wanted = options.jdkEventSettings();
        boolean jdkEventsWanted = wanted.alloc() || wanted.lock();
        LabelCapture labels = startLabels(options);
        LabelRecorder recorder = labels == null ? null : labels.recorder();
        boolean labelled = false;
        if (options.event() != null) {
            EventProfile sampled = new EventProfile(options.event().optionName(), options.intervalNanos(), times,
                    WARN);
            try {
                engine = EngineSelector.forChoice(options.engine(), options.event(), options.states())
                        .start(options.samplingSettings(recorder), sampled.sink());
            } catch (EngineUnavailableException | RuntimeException e) {
                if (labels != null) {
                    labels.stop();
                }
                throw e;
            }
            if (engine instanceof HelperEngine helper && helper.turnedOnInlinedFrameDetail()) {
                LOG.debug("{} turned on by the helper process", InlinedFrameDetail.FLAG);
            } else {
                InlinedFrameDetail.turnOn();
            }
            if (labels != null && !engine.recordsLabels()) {
                LOG.error("labels refused for {} samples: the {} engine does not record them (the perf, wall and "
                        + "helper engines do)", options.event().optionName(), engine.name());
            }
            labelled = engine.recordsLabels();
            profiles.add(sampled);
        }
        JdkEventStream jdkEvents = null;
        if (jdkEventsWanted) {
            try {
                jdkEvents = startJdkEvents(wanted, times, profiles, recorder);
                labelled = true;
            } catch (EngineUnavailableException e) {
                if (engine == null) {
                    if (labels != null) {
                        labels.stop();
                    }
                    throw e;
                }
                LOG.error("{} refused: {}; {} profiling goes on", wanted.alloc() && wanted.lock() ? "alloc and lock"
                        : wanted.alloc() ? "alloc" : "lock", e.getMessage(), options.event().optionName());
            }
        }
        if (labels != null && !labelled) {
            labels.stop();
            labels = null;
        }
        return new ProfilingSession(options, engine, jdkEvents, labels, profiles);
    }

    /** Starts recording labels where asked; where they cannot be, says why in one line and profiling goes on. */
    private static LabelCapture startLabels(AgentOptions options) {
        if (options.labels() == LabelOption.OFF && options.traces() == TraceOption.OFF) {
            return null;
        }
        try {
            return LabelCapture.start(options.labels(), options.traces(), options.push().pushes(),
                    AgentInstrumentation.get());
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.error("labels refused: {}; profiling goes on without them", e.getMessage());
            return null;
        }
    }

    /** Starts the JDK's event stream; on success the profiles of its events are added to {@code profiles}. */
    private static JdkEventStream startJdkEvents(JdkEventSettings wanted, boolean times, List<EventProfile> profiles,
                                                 LabelRecorder labels)
            throws EngineUnavailableException {
        String missing = JdkEvents.unavailableReason();
        if (missing != null) {
            throw new EngineUnavailableException(missing);
        }
        EventProfile alloc = new EventProfile(ProfileInfo.ALLOC, Math.max(0, wanted.allocBytes()), times, WARN);
        EventProfile lock = new EventProfile(ProfileInfo.LOCK, Math.max(0, wanted.lockNanos()), times, WARN);
        JdkEventStream stream = new JdkEventStream();
        stream.start(wanted, alloc.sink(), lock.sink(), labels);
        if (wanted.alloc()) {
            profiles.add(alloc);
        }
        if (wanted.lock()) {
            profiles.add(lock);
        }
        return stream;
    }

    AgentOptions options() {
        return options;
    }

    /** The engines that record, such as {@code perf}, {@code jfr} or {@code perf+jfr}. */
    String engineName() {
        if (engine == null) {
            return JDK_EVENTS_ENGINE;
        }
        return jdkEvents == null || engine.name().equals(JDK_EVENTS_ENGINE) ? engine.name()
                : engine.name() + "+" + JDK_EVENTS_ENGINE;
    }

    /** The events profiled, each with its interval, such as {@code cpu every 10ms, alloc, lock over 10us}. */
    String eventsDescription() {
        StringBuilder sb = new StringBuilder();
        for (EventProfile p : profiles) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p.event());
            switch (p.event()) {
                case ProfileInfo.ALLOC -> sb.append(p.interval() > 0 ? " every " + p.interval() + " bytes" : "");
                case ProfileInfo.LOCK -> sb.append(" over ").append(Durations.format(Math.max(1, p.interval())));
                default -> sb.append(" every ").append(Durations.format(p.interval()));
            }
        }
        return sb.toString();
    }

    /** Adds the account of the session's pushes to its cost notes. */
    void notePushes(PushCounters counters) {
        pushes = counters;
    }

    long startedMillis() {
        return startedMillis;
    }

    /** The profiles so far, one per event, in the order of {@link AgentOptions#events()}. */
    synchronized List<Profile> snapshot() {
        List<Profile> result = new ArrayList<>(profiles.size());
        for (EventProfile p : profiles) {
            result.add(p.snapshot(info(p)));
        }
        return result;
    }

    /** The profiles of the period that ends now; the next period starts empty. */
    synchronized List<Profile> endPeriod() {
        List<Profile> result = new ArrayList<>(profiles.size());
        for (EventProfile p : profiles) {
            result.add(p.snapshotAndReset(info(p)));
        }
        periodStartMillis = System.currentTimeMillis();
        periodStartNanos = System.nanoTime();
        if (labels != null) {
            labels.nextPeriod();
        }
        return result;
    }

    /**
     * The samples of the next {@code seconds} only, of the first event, in a profile of their own (the session's
     * profile goes on): blocks the calling thread for that long.
     */
    @Override
    public Profile window(long seconds) throws InterruptedException {
        return windowNanos(seconds * 1_000_000_000L);
    }

    @Override
    public Profile window(long seconds, String event) throws InterruptedException {
        EventProfile p = profileOf(event);
        return p == null ? null : p.window(seconds * 1_000_000_000L, engineOf(p), costNotes());
    }

    @Override
    public synchronized Profile sinceStart(String event) {
        EventProfile p = profileOf(event);
        return p == null ? null : p.snapshot(info(p));
    }

    Profile windowNanos(long nanos) throws InterruptedException {
        EventProfile first = profiles.get(0);
        return first.window(nanos, engineOf(first), costNotes());
    }

    private EventProfile profileOf(String event) {
        for (EventProfile p : profiles) {
            if (p.event().equals(event)) {
                return p;
            }
        }
        return null;
    }

    @Override
    public String engine() {
        return engineName();
    }

    @Override
    public String event() {
        return profiles.get(0).event();
    }

    @Override
    public long intervalNanos() {
        return profiles.get(0).interval();
    }

    @Override
    public long samples() {
        return profiles.get(0).samples();
    }

    /** The engines' account of their own cost and losses, one line each. */
    @Override
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>();
        if (engine != null) {
            notes.addAll(engine.costNotes());
        }
        if (jdkEvents != null) {
            notes.addAll(jdkEvents.costNotes());
        }
        if (labels != null) {
            notes.addAll(labels.costNotes());
        }
        PushCounters pushed = pushes;
        if (pushed != null) {
            notes.add(pushed.describe());
        }
        return notes;
    }

    /** Stops the engines; samples in flight are delivered first. */
    void stop() {
        if (engine != null) {
            engine.stop();
        }
        if (jdkEvents != null) {
            jdkEvents.stop();
        }
        if (labels != null) {
            labels.stop();
        }
    }

    private String engineOf(EventProfile p) {
        return engine != null && p == profiles.get(0) ? engine.name() : JDK_EVENTS_ENGINE;
    }

    private ProfileInfo info(EventProfile p) {
        boolean sampled = engine != null && p == profiles.get(0);
        List<NativeModule> modules = sampled ? engine.modules() : List.of();
        return new ProfileInfo(engineOf(p), p.event(), p.interval(), periodStartMillis,
                System.nanoTime() - periodStartNanos, costNotes(), modules);
    }
}
