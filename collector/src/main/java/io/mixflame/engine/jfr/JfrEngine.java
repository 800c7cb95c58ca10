package io.mixflame.engine.jfr;

import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.profile.SampleSink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine built into every JDK: JFR's execution samples and its native-method samples (for a CPU profile those
 * of threads that were running in the native method, not blocked there) streamed into the profile. Java frames
 * only; the fallback wherever native sampling is refused.
 */
public final class JfrEngine implements SamplingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(JfrEngine.class);
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final String NATIVE_METHOD_SAMPLE = "jdk.NativeMethodSample";

    private final JfrStackConverter converter = new JfrStackConverter();
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong eventErrors = new AtomicLong();
    private final AtomicLong nativeSamples = new AtomicLong();
    private final NativeSampleCpuFilter runningInNative = new NativeSampleCpuFilter();
    private RecordingStream stream;
    private SamplingSettings settings;
    private SampleSink target;

    @Override
    public String name() {
        return "jfr";
    }

    @Override
    public synchronized void start(SamplingSettings settings, SampleSink target)
            throws EngineUnavailableException {
        if (stream != null) {
            throw new IllegalStateException("already started");
        }
        this.settings = settings;
        this.target = target;
        stream = JfrStreams.start(rs -> {
            Duration period = Duration.ofNanos(settings.intervalNanos());
            rs.enable(EXECUTION_SAMPLE).withPeriod(period).withStackTrace();
            rs.onEvent(EXECUTION_SAMPLE, this::onSample);
            rs.enable(NATIVE_METHOD_SAMPLE).withPeriod(period).withStackTrace();
            rs.onEvent(NATIVE_METHOD_SAMPLE, settings.event() == ProfilingEvent.WALL ? this::onSample
                    : this::onNativeSample);
        }, flushes, "mixflame-jfr-stream");
    }

    private void onSample(RecordedEvent event) {
        // An exception escaping into the stream would end it; a bad event costs one sample, not the profile.
        try {
            converter.convert(event.getStackTrace(), event.getThread("sampledThread"), settings.threadRoots(), settings.lines());
            Instant at = event.getStartTime();
            target.add(converter.frames(), converter.depth(), 1, settings.intervalNanos(),
                    at.getEpochSecond() * 1_000_000_000L + at.getNano());
        } catch (RuntimeException e) {
            if (eventErrors.getAndIncrement() == 0) {
                LOG.warn("skipping a JFR sample that could not be read: {}", e.toString());
            }
        }
    }

    /** A CPU profile's native-method sample: counted where its thread was running, not blocked, in native code. */
    private void onNativeSample(RecordedEvent event) {
        try {
            RecordedThread thread = event.getThread("sampledThread");
            if (thread == null || !runningInNative.running(thread.getJavaThreadId(), System.nanoTime())) {
                return;
            }
        } catch (RuntimeException e) {
            return;
        }
        nativeSamples.incrementAndGet();
        onSample(event);
    }

    @Override
    public synchronized void stop() {
        stream = JfrStreams.stop(stream, flushes);
    }

    @Override
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>();
        // JFR knows no native frames: a profile from it is not a mixed one, and its reader should know.
        SamplingSettings s = settings;
        notes.add("native frames are missing: JFR samples Java frames only"
                + (s != null && s.event() == ProfilingEvent.WALL ? "" : " (" + nativeSamples.get()
                + " samples of threads running in a native method end at that method)"));
        long errors = eventErrors.get();
        if (errors > 0) {
            notes.add(errors + " JFR samples could not be read and were skipped");
        }
        return notes;
    }
}
