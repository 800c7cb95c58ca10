package io.mixflame.engine.jfr;

import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import io.mixflame.engine.EngineUnavailableException;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starting and stopping a JFR event stream inside the profiled JVM, as every stream of mixflame's does it. */
final class JfrStreams {
    private static final Logger LOG = LoggerFactory.getLogger(JfrStreams.class);
    private static final long FLUSH_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1_500);

    private JfrStreams() {
    }

    /**
     * Opens a stream that delivers events as they come (unordered) in one reused object each, as per-event work
     * wants, lets {@code setup} enable its events and handlers, and starts it on a daemon thread named
     * {@code threadName}; {@code flushes} counts its flushes, for {@link #stop}.
     *
     * @throws EngineUnavailableException when this JVM cannot record, or JFR refuses the settings
     */
    static RecordingStream start(Consumer<RecordingStream> setup, AtomicLong flushes,
                                 String threadName) throws EngineUnavailableException {
        RecordingStream rs;
        try {
            rs = new RecordingStream();
        } catch (RuntimeException | Error e) {
            throw new EngineUnavailableException("JFR is not available in this JVM: " + e, e);
        }
        try {
            rs.setReuse(true);
            rs.setOrdered(false);
            setup.accept(rs);
            rs.onFlush(flushes::incrementAndGet);
            startOnDaemonThread(rs, threadName);
        } catch (RuntimeException e) {
            rs.close();
            throw new EngineUnavailableException("JFR refused to start: " + e.getMessage(), e);
        }
        return rs;
    }

    /**
     * {@code startAsync()} runs the stream on a non-daemon thread, which would keep the application's JVM alive
     * after its main thread ends; a daemon thread of ours runs the same loop instead.
     */
    private static void startOnDaemonThread(RecordingStream rs, String threadName) {
        Thread consumer = new Thread(() -> {
            try {
                rs.start();
            } catch (RuntimeException e) {
                LOG.error("the JFR stream ended: {}", e.toString());
            }
        }, threadName);
        consumer.setDaemon(true);
        consumer.start();
    }

    /**
     * Stops the stream after the events recorded so far are delivered (as far as the JDK allows), then closes it;
     * {@code flushes} counts the stream's flushes ({@code onFlush}). Never throws; nothing to do for a null stream.
     *
     * @return null, the stream its owner holds from now on
     */
    static RecordingStream stop(RecordingStream rs, AtomicLong flushes) {
        if (rs == null) {
            return null;
        }
        try {
            if (!stopAndDrain(rs)) {
                awaitNextFlush(flushes);
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
        return null;
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
    private static void awaitNextFlush(AtomicLong flushes) {
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
}
