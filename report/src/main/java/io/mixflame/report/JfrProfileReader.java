package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads the execution samples of a JFR recording, one written by {@link JfrProfileWriter}, by the JDK or by
 * async-profiler, with the JDK's own parser ({@code jdk.jfr.consumer}); only call it when the runtime has the
 * {@code jdk.jfr} module ({@link ProfileFiles} checks).
 *
 * <p>Each {@code jdk.ExecutionSample} and {@code jdk.NativeMethodSample} event is one sample of its stack, under a
 * root frame {@code [name tid=N]} when the event names its thread, at its time ({@link Profile#times()}). Frame
 * kinds come back from the frame types ({@link JfrFrameKinds}); a method of a native kind with one of async-profiler's pseudo-signatures, or of a class
 * without a name, is native code named by the method alone, its pseudo-class being its module. The engine, event
 * and interval come back from {@link JfrProfileWriter}'s settings, the notes from its {@code mixflame.Note} events;
 * each stack weighs its samples times the interval. A {@code mixflame.SampleLabels} event right after a sample, of its
 * time and thread, gives the sample its labels ({@link JfrLabels}): label frames after its thread's, sorted by key.
 */
final class JfrProfileReader {

    private final ReadBounds bounds;

    JfrProfileReader(ReadBounds bounds) {
        this.bounds = bounds;
    }

    /**
     * Reads the whole recording.
     *
     * @throws IOException with one line saying why when the file is not a readable recording or goes past a bound
     */
    Profile read(Path path) throws IOException {
        ProfileAccumulator acc = new ProfileAccumulator(Integer.MAX_VALUE, Integer.MAX_VALUE, m -> { });
        acc.recordTimes();
        List<String> notes = new ArrayList<>();
        String engine = "jfr-file";
        String event = "unknown";
        long interval = 0;
        long startNanos = Long.MAX_VALUE;
        long noteChars = 0;
        long events = 0;
        List<Frame> stack = new ArrayList<>();
        // A sample is added once the next event shows whether it is the sample's labels.
        RecordedEvent pending = null;
        Frame[] pendingFrames = null;
        try (RecordingFile file = new RecordingFile(path)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                events++;
                String type = e.getEventType().getName();
                if (pending != null) {
                    Frame[] frames = type.equals(JfrProfileWriter.SAMPLE_LABELS) && sameSample(pending, e)
                            ? withLabels(pendingFrames, e, events) : pendingFrames;
                    startNanos = Math.min(startNanos, addSample(acc, frames, pending));
                    checkHeld(acc, noteChars, events);
                    pending = null;
                }
                switch (type) {
                    case JfrProfileWriter.EXECUTION_SAMPLE, "jdk.NativeMethodSample" -> {
                        if (stackOf(e, stack, events)) {
                            pending = e;
                            pendingFrames = stack.toArray(Frame[]::new);
                        }
                    }
                    case JfrProfileWriter.ACTIVE_SETTING -> {
                        String value = e.hasField("value") ? e.getString("value") : null;
                        String name = e.hasField("name") ? e.getString("name") : "";
                        if (value == null) {
                            continue;
                        }
                        switch (name) {
                            case JfrProfileWriter.SETTING_ENGINE -> engine = value;
                            case JfrProfileWriter.SETTING_EVENT -> event = value;
                            case JfrProfileWriter.SETTING_INTERVAL -> interval = parseInterval(value, interval);
                            default -> {
                                // the JDK's own settings: nothing the profile keeps
                            }
                        }
                    }
                    case JfrProfileWriter.NOTE -> {
                        String text = e.getString("text");
                        if (text != null) {
                            notes.add(text);
                            noteChars += text.length();
                            checkHeld(acc, noteChars, events);
                        }
                    }
                    default -> {
                        // other events (and labels, taken above): not samples
                    }
                }
            }
            if (pending != null) {
                startNanos = Math.min(startNanos, addSample(acc, pendingFrames, pending));
                checkHeld(acc, noteChars, events);
            }
        } catch (OverBound e) {
            throw new IOException(e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            // The parser reports a corrupt or truncated file in many ways (IOException, InternalError's kin,
            // index errors): one line, whatever it was.
            throw new IOException("is not a readable JFR recording (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage())) + ")", e);
        }
        long startMillis = startNanos == Long.MAX_VALUE ? 0 : startNanos / 1_000_000L;
        return acc.snapshot(new ProfileInfo(engine, event, interval, startMillis, 0, notes)).withSampleWeight(interval);
    }

    /** Fills {@code stack} with the event's frames, root first; false when the event has no stack. */
    private boolean stackOf(RecordedEvent e, List<Frame> stack, long events) throws IOException {
        stack.clear();
        RecordedStackTrace trace = e.getStackTrace();
        if (trace == null) {
            return false;
        }
        List<RecordedFrame> leafFirst = trace.getFrames();
        if (leafFirst.size() >= bounds.maxStackDepth()) {
            throw new OverBound(ReadBounds.exceeded("event " + events, bounds.maxStackDepth(), "frames in one stack"));
        }
        RecordedThread thread = e.hasField("sampledThread") ? e.getThread("sampledThread") : null;
        if (thread != null) {
            String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
            stack.add(Frame.thread(name == null ? "" : name, Math.max(0, thread.getOSThreadId())));
        }
        for (int i = leafFirst.size() - 1; i >= 0; i--) {
            stack.add(frame(leafFirst.get(i)));
        }
        return !stack.isEmpty();
    }

    /** Adds one sample of these frames at the event's time; returns that time, in nanoseconds since the epoch. */
    private static long addSample(ProfileAccumulator acc, Frame[] frames, RecordedEvent sample) {
        long at = sample.getStartTime().getEpochSecond() * 1_000_000_000L + sample.getStartTime().getNano();
        acc.add(frames, frames.length, 1, 0, at);
        return at;
    }

    /** Whether a labels event is of the sample before it: same time, same thread (or neither names one). */
    private static boolean sameSample(RecordedEvent sample, RecordedEvent labels) {
        if (!sample.getStartTime().equals(labels.getStartTime())) {
            return false;
        }
        RecordedThread sampled = sample.hasField("sampledThread") ? sample.getThread("sampledThread") : null;
        RecordedThread labelled = labels.hasField("eventThread") ? labels.getThread("eventThread") : null;
        return sampled == null ? labelled == null
                : labelled != null && sampled.getOSThreadId() == labelled.getOSThreadId();
    }

    /** The sample's frames with the labels of {@code labels} after its thread frame, sorted by key. */
    private Frame[] withLabels(Frame[] rootFirst, RecordedEvent labels, long events) throws IOException {
        String text = labels.hasField("labels") ? labels.getString("labels") : null;
        List<Frame> parsed;
        try {
            parsed = JfrLabels.parse(text, Math.max(0, bounds.maxStackDepth() - rootFirst.length));
        } catch (IllegalArgumentException e) {
            throw new OverBound(ReadBounds.exceeded("event " + events, bounds.maxStackDepth(), "frames in one stack"));
        }
        if (parsed.isEmpty()) {
            return rootFirst;
        }
        Frame[] sorted = LabelFrames.sorted(parsed.toArray(Frame[]::new));
        int at = rootFirst.length > 0 && rootFirst[0].type() == FrameType.THREAD ? 1 : 0;
        Frame[] frames = new Frame[rootFirst.length + sorted.length];
        System.arraycopy(rootFirst, 0, frames, 0, at);
        System.arraycopy(sorted, 0, frames, at, sorted.length);
        System.arraycopy(rootFirst, at, frames, at + sorted.length, rootFirst.length - at);
        return frames;
    }

    private static Frame frame(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        String type = frame.getType();
        if (method == null) {
            return Frame.UNKNOWN;
        }
        String methodName = nonEmpty(method.getName());
        String className = method.getType() == null ? "" : nonEmpty(method.getType().getName());
        String descriptor = method.getDescriptor();
        boolean pseudo = JfrProfileWriter.NATIVE_SIGNATURE.equals(descriptor)
                || JfrProfileWriter.KERNEL_SIGNATURE.equals(descriptor);
        FrameType kind = JfrFrameKinds.fromJfr(type);
        if (methodName.isEmpty() && className.isEmpty()) {
            return Frame.UNKNOWN;
        }
        if (kind == FrameType.KERNEL) {
            return new Frame(methodName, FrameType.KERNEL);
        }
        if (kind == FrameType.NATIVE && (pseudo || className.isEmpty())) {
            FrameType guessed = CollapsedFrames.parse(methodName).type();
            // Markers and threads below the root were written as native methods of no module.
            if (guessed == FrameType.THREAD) {
                return CollapsedFrames.threadFrame(methodName);
            }
            if (guessed == FrameType.MARKER) {
                return new Frame(methodName, guessed);
            }
            return className.isEmpty() ? new Frame(methodName, FrameType.NATIVE)
                    : Frame.nativeCode(methodName, className, 0);
        }
        // The JDK's parser shows class names with dots; mixflame and async-profiler write them with slashes.
        String javaClass = className.replace('.', '/');
        String name = javaClass.isEmpty() ? methodName : javaClass + '.' + methodName;
        if (name.isEmpty()) {
            return Frame.UNKNOWN;
        }
        // A Java frame's line is kept (async-profiler's files always have it); a native method's is not meaningful.
        int line = kind.isJava() ? Math.max(0, frame.getLineNumber()) : 0;
        return new Frame(name, kind, null, 0, line);
    }

    private void checkHeld(ProfileAccumulator acc, long noteChars, long events) throws IOException {
        if (acc.distinctStacks() > bounds.maxStacks()) {
            throw new OverBound(ReadBounds.exceeded("event " + events, bounds.maxStacks(), "distinct stacks in one read"));
        }
        if (acc.distinctFrames() > bounds.maxFrames()) {
            throw new OverBound(ReadBounds.exceeded("event " + events, bounds.maxFrames(), "distinct frames in one read"));
        }
        if (acc.stackFrames() > bounds.maxStackFrames()) {
            throw new OverBound(ReadBounds.exceeded("event " + events, bounds.maxStackFrames(), "frames in all distinct stacks of one read"));
        }
        if (acc.frameNameChars() + noteChars > bounds.maxTextChars()) {
            throw new OverBound(ReadBounds.exceeded("event " + events, bounds.maxTextChars(), "characters of frame names and notes in one read"));
        }
    }

    /** A bound reached: reported as it is, not as a corrupt file. */
    private static final class OverBound extends IOException {
        OverBound(IOException exceeded) {
            super(exceeded.getMessage());
        }
    }

    private static long parseInterval(String value, long otherwise) {
        try {
            long nanos = Long.parseLong(value);
            return nanos >= 0 ? nanos : otherwise;
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static String nonEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
