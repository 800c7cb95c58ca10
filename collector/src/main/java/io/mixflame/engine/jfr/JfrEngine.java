package io.mixflame.engine.jfr;

import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.profile.SampleSink;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine built into every JDK: JFR's execution samples (and, for wall-clock profiles, its native-method
 * samples) streamed into the profile. Java frames only; the fallback wherever native sampling is refused.
 */
public final class JfrEngine implements SamplingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(JfrEngine.class);
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final String NATIVE_METHOD_SAMPLE = "jdk.NativeMethodSample";
    private static final long FLUSH_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1_500);

    private final JfrStackConverter converter = new JfrStackConverter();
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong eventErrors = new AtomicLong();
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
        RecordingStream rs;
        try {
            rs = new RecordingStream();
        } catch (RuntimeException | Error e) {
            throw new EngineUnavailableException("JFR is not available in this JVM: " + e, e);
        }
        try {
            Duration period = Duration.ofNanos(settings.intervalNanos());
            rs.setReuse(true);
            rs.setOrdered(false);
            rs.enable(EXECUTION_SAMPLE).withPeriod(period).withStackTrace();
            rs.onEvent(EXECUTION_SAMPLE, this::onSample);
            if (settings.event() == ProfilingEvent.WALL) {
                rs.enable(NATIVE_METHOD_SAMPLE).withPeriod(period).withStackTrace();
                rs.onEvent(NATIVE_METHOD_SAMPLE, this::onSample);
            }
            rs.onFlush(flushes::incrementAndGet);
            startOnDaemonThread(rs);
        } catch (RuntimeException e) {
            rs.close();
            throw new EngineUnavailableException("JFR refused to start: " + e.getMessage(), e);
        }
        stream = rs;
    }

    /**
     * {@code startAsync()} runs the stream on a non-daemon thread, which would keep the application's JVM alive
     * after its main thread ends; a daemon thread of ours runs the same loop instead.
     */
    private static void startOnDaemonThread(RecordingStream rs) {
        Thread consumer = new Thread(() -> {
            try {
                rs.start();
            } catch (RuntimeException e) {
                LOG.error("the JFR stream ended: {}", e.toString());
            }
        }, "mixflame-jfr-stream");
        consumer.setDaemon(true);
        consumer.start();
    }

    private void onSample(RecordedEvent event) {
        // An exception escaping into the stream would end it; a bad event costs one sample, not the profile.
        try {
            converter.convert(event.getStackTrace(), event.getThread("sampledThread"), settings.threadRoots(), settings.lines());
            java.time.Instant at = event.getStartTime();
            target.add(converter.frames(), converter.depth(), 1, settings.intervalNanos(),
                    at.getEpochSecond() * 1_000_000_000L + at.getNano());
        } catch (RuntimeException e) {
            if (eventErrors.getAndIncrement() == 0) {
                LOG.warn("skipping a JFR sample that could not be read: {}", e.toString());
            }
        }
    }

    @Override
    public synchronized void stop() {
        RecordingStream rs = stream;
        if (rs == null) {
            return;
        }
        stream = null;
        try {
            if (!stopAndDrain(rs)) {
                awaitNextFlush();
            }
        } catch (RuntimeException e) {
            LOG.debug("JFR stream did not stop cleanly: {}", e.toString());
        } finally {
            try {
                rs.close();
            } catch (RuntimeException e) {
                LOG.debug("JFR stream did not close cleanly: {}", e.toString());
            }
        }
    }

    /** JDK 20 added {@code RecordingStream.stop()}, which delivers every recorded event before returning. */
    private static boolean stopAndDrain(RecordingStream rs) {
        Method stop;
        try {
            stop = RecordingStream.class.getMethod("stop");
        } catch (NoSuchMethodException e) {
            return false;
        }
        try {
            stop.invoke(rs);
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /**
     * Older JDKs only have {@code close()}, which drops what is not yet delivered; JFR flushes about once a second,
     * so waiting for the next flush (bounded, to keep JVM exit quick) lets the events recorded before the stop
     * arrive first.
     */
    private void awaitNextFlush() {
        long seen = flushes.get();
        long deadline = System.nanoTime() + FLUSH_WAIT_NANOS;
        while (flushes.get() < seen + 1 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public List<String> costNotes() {
        long errors = eventErrors.get();
        return errors == 0 ? List.of() : List.of(errors + " JFR samples could not be read and were skipped");
    }
}
