package io.mixflame.agent.labels;

import io.mixflame.capture.labels.LabelLog;
import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.capture.labels.LabelSets;
import io.mixflame.capture.labels.SpanTable;
import io.mixflame.platform.host.TargetProcesses;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The labels of one profiling run: a recorder the engines read, reached by the application's threads through the
 * bootstrap bridge, from the instrumented HTTP servers and the API as {@link LabelOption} says. Stopping makes the
 * bridge empty again: the woven code stays and does nothing.
 */
public final class LabelCapture {
    /** Threads with a label log at once, at most (4 KiB each, allocated 32 threads at a time). */
    static final int MAX_THREADS = 4096;

    private final LabelOption option;
    private final Class<?> bridge;
    private final LabelRecorder recorder;
    /** Whether spans are recorded. */
    private final boolean spans;

    private LabelCapture(LabelOption option, Class<?> bridge, LabelRecorder recorder, boolean spans) {
        this.option = option;
        this.bridge = bridge;
        this.recorder = recorder;
        this.spans = spans;
    }

    /**
     * Prepares {@code launch} for labels: the loader, holding the bridge, that is to be the application's loader's
     * parent ({@link BootstrapBridge#launchLoader}).
     */
    public static ClassLoader launchParent() throws IOException {
        return BootstrapBridge.launchLoader();
    }

    /**
     * Starts recording labels.
     *
     * @param instrumentation the agent's, or null where there is none ({@code launch})
     * @throws IOException when labels cannot be recorded here, saying why in one line
     */
    public static LabelCapture start(LabelOption asked, Instrumentation instrumentation) throws IOException {
        return start(asked, TraceOption.OFF, false, instrumentation);
    }

    /**
     * Starts recording labels, and the OpenTelemetry span current on each thread where {@code traces} asks.
     *
     * @param tagRoots        whether sampled local root spans get {@code pyroscope.profile.id} (profiles are pushed)
     * @param instrumentation the agent's, or null where there is none ({@code launch})
     * @throws IOException when labels cannot be recorded here, saying why in one line
     */
    public static LabelCapture start(LabelOption asked, TraceOption traces, boolean tagRoots,
                                     Instrumentation instrumentation) throws IOException {
        LabelOption option = asked;
        Class<?> bridge;
        if (instrumentation != null) {
            bridge = BootstrapBridge.define(instrumentation);
        } else {
            bridge = BootstrapBridge.launched();
            if (bridge == null) {
                throw new IOException("labels need the JVM's instrumentation (-javaagent or attach)");
            }
            if (!option.api() && option != LabelOption.OFF) {
                throw new IOException("HTTP labels need the JVM's instrumentation (-javaagent or attach), which launch "
                        + "has not; labels=api records the API's");
            }
            if (option.http()) {
                LoggerFactory.getLogger(LabelCapture.class).warn("HTTP labels need the JVM's instrumentation "
                        + "(-javaagent or attach), which launch has not; the API's labels are recorded");
                option = LabelOption.API;
            }
        }
        LabelRecorder recorder = new LabelRecorder(new LabelSets(LabelSets.DEFAULT_MAX_SETS), new LabelLog(MAX_THREADS),
                TargetProcesses.ownThreadId());
        RecorderFunctions functions = new RecorderFunctions(recorder);
        BootstrapBridge.install(bridge, functions, functions, functions, option.api());
        boolean spans = false;
        try {
            if (traces != TraceOption.OFF || option.http() && instrumentation != null) {
                spans = startSpans(recorder, traces, option.http(), tagRoots, instrumentation, bridge);
            }
            if (option.api() && instrumentation != null) {
                // API classes loaded before the agent came (attach); those loaded later register themselves.
                BootstrapBridge.registerLoadedApis(bridge, instrumentation);
            }
            if (option.http()) {
                try {
                    WeavingLoader.installOnce(instrumentation, bridge);
                } catch (IOException e) {
                    if (!option.api()) {
                        throw e;
                    }
                    LoggerFactory.getLogger(LabelCapture.class)
                            .error("HTTP labels refused: {}; the API's labels are recorded", e.getMessage());
                }
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            // Nothing recorded when the run does not record labels: the bridge is left empty again.
            recorder.stop();
            BootstrapBridge.install(bridge, null, null, null, false);
            BootstrapBridge.installContexts(bridge, null);
            BootstrapBridge.installMounts(bridge, null, null);
            throw e instanceof IOException io ? io : new IOException(e.toString(), e);
        }
        return new LabelCapture(option, bridge, recorder, spans);
    }

    /**
     * Records spans: OpenTelemetry's context storage woven (in whichever copies load), and what it tells the bridge
     * read into the recorder. Where there is no instrumentation ({@code launch}) says so in one line; false then.
     */
    private static boolean startSpans(LabelRecorder recorder, TraceOption traces, boolean endpoints, boolean tagRoots,
                                      Instrumentation instrumentation, Class<?> bridge) throws IOException {
        if (instrumentation == null) {
            LoggerFactory.getLogger(LabelCapture.class).error("traces refused: OpenTelemetry's context storage is "
                    + "woven through the JVM's instrumentation (-javaagent or attach), which launch has not");
            return false;
        }
        recorder.recordSpans(traces != TraceOption.ALL, TraceOption.SPANS_PER_PERIOD, traces != TraceOption.OFF,
                endpoints);
        BootstrapBridge.installContexts(bridge, new SpanContextReader(recorder,
                tagRoots && traces != TraceOption.OFF));
        BootstrapBridge.installMounts(bridge, recorder::mounted, recorder::unmounting);
        WeavingLoader.installContextsOnce(instrumentation, bridge);
        return true;
    }

    /** The profile's period ended: the bound on distinct spans counts afresh. */
    public void nextPeriod() {
        SpanTable table = recorder.spanTable();
        if (table != null) {
            table.nextPeriod();
        }
    }

    /** What the engines read. */
    public LabelRecorder recorder() {
        return recorder;
    }

    /** Stops recording; idempotent. */
    public void stop() {
        recorder.stop();
        BootstrapBridge.install(bridge, null, null, null, false);
        if (spans) {
            BootstrapBridge.installContexts(bridge, null);
            BootstrapBridge.installMounts(bridge, null, null);
        }
    }

    /** What labels cost and lost, one line each. */
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>(2);
        LabelSets sets = recorder.sets();
        LabelLog log = recorder.log();
        StringBuilder line = new StringBuilder("labels: ").append(sets.size() - 2).append(" distinct sets");
        if (sets.overflowed()) {
            line.append(" (the bound of ").append(LabelSets.DEFAULT_MAX_SETS - 2)
                    .append(" was reached: the rest are [labels=other])");
        }
        line.append(", ").append(log.slots()).append(" threads' logs");
        if (log.refused() > 0) {
            line.append(", ").append(log.refused()).append(" threads without one (all ").append(MAX_THREADS)
                    .append(" held)");
        }
        String woven = option.http() ? WeavingLoader.describe() : "";
        if (!woven.isEmpty()) {
            line.append(", ").append(woven);
        }
        if (option != LabelOption.OFF) {
            notes.add(line.toString());
        }
        SpanTable table = recorder.spanTable();
        if (spans && table != null && (recorder.spanIds() || table.written() != 0)) {
            StringBuilder t = new StringBuilder("traces: ").append(Integer.toUnsignedLong(table.written()))
                    .append(" spans made current");
            String contexts = WeavingLoader.describeContexts();
            if (!contexts.isEmpty()) {
                t.append(", ").append(contexts);
            }
            if (table.overflowed() > 0) {
                t.append(", ").append(table.overflowed()).append(" samples' spans past the bound of ")
                        .append(TraceOption.SPANS_PER_PERIOD).append(" a period ([span_id=other])");
            }
            if (table.gone() > 0) {
                t.append(", ").append(table.gone()).append(" samples' spans overwritten before they were taken");
            }
            notes.add(t.toString());
        }
        return notes;
    }
}
