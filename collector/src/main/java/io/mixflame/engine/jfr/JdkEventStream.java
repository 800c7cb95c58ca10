package io.mixflame.engine.jfr;

import io.mixflame.capture.labels.LabelSource;
import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.profile.ClassNames;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.SampleSink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Allocation and lock profiles from the JDK's own events, streamed in-process through one JFR recording stream
 * (started only when one of them is asked for): {@code jdk.ObjectAllocationSample} (JDK 16+; JFR samples allocations
 * at a bounded rate, and each sample weighs the bytes its thread allocated since its previous one), and
 * {@code jdk.JavaMonitorEnter} and {@code jdk.ThreadPark} over a threshold (weighing the time waited). Each stack
 * ends in a {@link FrameType#CLASS} frame: the allocated object's class, the monitor's, the parked-on object's.
 *
 * <p>Callers check {@link JdkEvents#available()} before loading this class: it refers to {@code jdk.jfr}, which a
 * jlinked runtime may lack.
 */
public final class JdkEventStream {
    private static final Logger LOG = LoggerFactory.getLogger(JdkEventStream.class);
    static final String ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";
    static final String MONITOR_ENTER = "jdk.JavaMonitorEnter";
    static final String THREAD_PARK = "jdk.ThreadPark";
    /** JFR's {@code profile} setting for allocation samples; its {@code default} setting has 150/s. */
    static final String ALLOCATION_THROTTLE = "300/s";
    /** Class frames kept by name; past this, a class's frame is made anew for each event (a bound, never reached by most services). */
    private static final int MAX_CLASS_FRAMES = 10_000;
    /** Where a park names no object to park on ({@code LockSupport.park()} without a blocker). */
    static final Frame NO_BLOCKER = new Frame("[no blocker]", FrameType.MARKER);
    /** How every thread of the profiler's is named. */
    private static final String PROFILER_THREADS = "mixflame-";

    private final JfrStackConverter converter = new JfrStackConverter();
    private final Map<String, Frame> classFrames = new HashMap<>();
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong eventErrors = new AtomicLong();
    private final AtomicLong allocSamples = new AtomicLong();
    private final AtomicLong allocKept = new AtomicLong();
    private final AtomicLong ownEvents = new AtomicLong();
    private RecordingStream stream;
    private JdkEventSettings settings;
    private AllocationInterval allocInterval;
    private SampleSink allocTarget;
    private SampleSink lockTarget;
    /** The labels of the events' threads at the events' times; null when not recorded. */
    private SampleLabeler labels;
    private EventClock clock;

    /**
     * Starts recording the events {@code settings} asks for, on a daemon thread {@code mixflame-jfr-events}.
     *
     * @param alloc where allocation samples go (unused when allocation profiling is off)
     * @param lock  where lock samples go (unused when lock profiling is off)
     * @throws EngineUnavailableException when JFR cannot record here; the message says why in one line
     */
    public synchronized void start(JdkEventSettings settings, SampleSink alloc, SampleSink lock)
            throws EngineUnavailableException {
        start(settings, alloc, lock, null);
    }

    /**
     * Starts recording as {@link #start(JdkEventSettings, SampleSink, SampleSink)} does, each event's stack with the
     * labels its thread had at the event's time ({@code labels}: this JVM's; null for none).
     */
    public synchronized void start(JdkEventSettings settings, SampleSink alloc, SampleSink lock,
                                   LabelSource labels) throws EngineUnavailableException {
        if (stream != null) {
            throw new IllegalStateException("already started");
        }
        this.settings = settings;
        this.allocInterval = new AllocationInterval(Math.max(0, settings.allocBytes()));
        this.allocTarget = alloc;
        this.lockTarget = lock;
        this.labels = labels == null ? null : labels.labeler(null);
        this.clock = labels == null ? null : new EventClock();
        if (settings.alloc() && Runtime.version().feature() < 16) {
            throw new EngineUnavailableException("allocation profiling needs JDK 16 or later (its "
                    + ALLOCATION_SAMPLE + " event); this is " + Runtime.version());
        }
        stream = JfrStreams.start(rs -> {
            if (settings.alloc()) {
                rs.enable(ALLOCATION_SAMPLE).with("throttle", ALLOCATION_THROTTLE).withStackTrace();
                rs.onEvent(ALLOCATION_SAMPLE, this::onAllocation);
            }
            if (settings.lock()) {
                Duration threshold = Duration.ofNanos(settings.lockNanos());
                rs.enable(MONITOR_ENTER).withThreshold(threshold).withStackTrace();
                rs.onEvent(MONITOR_ENTER, this::onMonitorEnter);
                rs.enable(THREAD_PARK).withThreshold(threshold).withStackTrace();
                rs.onEvent(THREAD_PARK, this::onPark);
            }
            if (clock != null) {
                rs.enable(ClockMark.NAME);
                rs.onEvent(ClockMark.NAME, clock::read);
                rs.onFlush(EventClock::mark);
            }
        }, flushes, "mixflame-jfr-events");
        if (clock != null) {
            EventClock.mark();
        }
    }

    private void onAllocation(RecordedEvent event) {
        // An exception escaping into the stream would end it; a bad event costs one sample, not the profile.
        try {
            allocSamples.incrementAndGet();
            long interval = allocInterval.interval();
            long bytes = allocInterval.weigh(event.getLong("weight"),
                    interval > 0 ? ThreadLocalRandom.current().nextLong(interval) : 0);
            if (bytes == AllocationInterval.LEFT_OUT) {
                return;
            }
            allocKept.incrementAndGet();
            add(allocTarget, event, event.getClass("objectClass"), bytes);
        } catch (RuntimeException e) {
            skipped(e);
        }
    }

    private void onMonitorEnter(RecordedEvent event) {
        try {
            add(lockTarget, event, event.getClass("monitorClass"), event.getDuration().toNanos());
        } catch (RuntimeException e) {
            skipped(e);
        }
    }

    private void onPark(RecordedEvent event) {
        try {
            add(lockTarget, event, event.getClass("parkedClass"), event.getDuration().toNanos());
        } catch (RuntimeException e) {
            skipped(e);
        }
    }

    private void add(SampleSink target, RecordedEvent event, RecordedClass type, long weight) {
        RecordedThread thread = event.getThread();
        String name = thread == null ? null : thread.getJavaName();
        if (name != null && name.startsWith(PROFILER_THREADS)) {
            // The profiler's own threads wait between ticks and allocate as they sample: its cost, not the service's.
            ownEvents.incrementAndGet();
            return;
        }
        converter.convert(event.getStackTrace(), thread, settings.threadRoots(), settings.lines());
        converter.appendLeaf(type == null ? NO_BLOCKER : classFrame(type.getName()));
        Instant at = event.getStartTime();
        Frame[] frames = converter.frames();
        int depth = converter.depth();
        if (labels != null && thread != null) {
            // A lock event's labels are those of when the wait began, the event's start.
            depth = labels.label(thread.getOSThreadId(), clock.nanoTime(at), frames, depth, settings.threadRoots());
            frames = labels.frames();
        }
        target.add(frames, depth, 1, Math.max(0, weight), EventClock.epochNanos(at));
    }

    private Frame classFrame(String jvmName) {
        Frame frame = classFrames.get(jvmName);
        if (frame == null) {
            frame = new Frame(ClassNames.readable(jvmName), FrameType.CLASS);
            if (classFrames.size() < MAX_CLASS_FRAMES) {
                classFrames.put(jvmName, frame);
            }
        }
        return frame;
    }

    private void skipped(RuntimeException e) {
        if (eventErrors.getAndIncrement() == 0) {
            LOG.warn("skipping a JFR event that could not be read: {}", e.toString());
        }
    }

    /** Stops recording; the events recorded so far are delivered first (as far as the JDK allows). Idempotent. */
    public synchronized void stop() {
        stream = JfrStreams.stop(stream, flushes);
    }

    /** Facts about what was recorded and lost, one line each. */
    public List<String> costNotes() {
        List<String> notes = new ArrayList<>(2);
        long errors = eventErrors.get();
        if (errors > 0) {
            notes.add(errors + " JFR events could not be read and were skipped");
        }
        long own = ownEvents.get();
        if (own > 0) {
            notes.add(own + " allocation and lock events of the profiler's own threads left out");
        }
        if (settings != null && settings.allocBytes() > 0) {
            notes.add("alloc=" + settings.allocBytes() + ": " + allocKept.get() + " of " + allocSamples.get()
                    + " JFR allocation samples kept");
        }
        return notes;
    }
}
