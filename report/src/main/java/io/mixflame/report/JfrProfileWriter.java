package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmc.flightrecorder.writer.api.Recording;
import org.openjdk.jmc.flightrecorder.writer.api.Recordings;
import org.openjdk.jmc.flightrecorder.writer.api.Type;
import org.openjdk.jmc.flightrecorder.writer.api.TypedValue;
import org.openjdk.jmc.flightrecorder.writer.api.Types;

/**
 * Writes a profile as a JDK Flight Recorder file, with JDK Mission Control's writer: what the JDK's {@code jfr}
 * tool, JMC, IntelliJ and async-profiler's converter open.
 *
 * <p>Each sample is one {@code jdk.ExecutionSample} event, laid out as the JDK lays it out (start time, sampled
 * thread, stack trace, thread state), so that readers that read fields by position read it too. A stack's root
 * frame {@code [name tid=N]} becomes the sampled thread instead of a frame. Java frames are methods of their
 * class; native code, kernel code, stubs and markers are methods of a pseudo-class named after their module (empty
 * when unknown), with async-profiler's pseudo-signatures, as async-profiler writes them. The thread state is
 * async-profiler's: {@code STATE_DEFAULT} in cpu profiles, {@code STATE_RUNNABLE} or {@code STATE_SLEEPING} by the
 * wall-clock state leaf frame in wall profiles (the leaf frame itself is kept).
 *
 * <p>The profile is aggregated, so every event carries the profile's start (the time of writing when that is not
 * known), not the moment its sample was taken. At most {@code maxEvents} events are written: past that, each
 * stack's events are scaled down in proportion (shares are kept, counts are not, and a {@code mixflame.Note}
 * event says so). The engine, event and interval are {@code jdk.ActiveSetting} events; every note of the profile
 * (the sampler's cost) is a {@code mixflame.Note} event.
 */
public final class JfrProfileWriter implements ProfileWriter {

    /** The most events one file holds (each costs about 10 bytes while the file is built in memory). */
    public static final long MAX_EVENTS = 2_000_000;

    static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    static final String ACTIVE_SETTING = "jdk.ActiveSetting";
    static final String NOTE = "mixflame.Note";
    static final String SETTING_ENGINE = "engine";
    static final String SETTING_EVENT = "event";
    static final String SETTING_INTERVAL = "interval";
    /**
     * async-profiler's pseudo-signatures of native and kernel functions; the first also stands for the unknown
     * signature of a Java method (the JDK's {@code jfr print} fails on a method without one).
     */
    static final String NATIVE_SIGNATURE = "()L;";
    static final String KERNEL_SIGNATURE = "(Lk;)L;";
    private static final int ACC_NATIVE = 0x100;
    private static final String RUNNING_STATE_FRAME = "[running]";
    private static final Pattern THREAD_FRAME = Pattern.compile("\\[(?:(.*) )?tid=(\\d{1,18})]", Pattern.DOTALL);

    private final long maxEvents;

    /** A writer of at most {@link #MAX_EVENTS} events. */
    public JfrProfileWriter() {
        this(MAX_EVENTS);
    }

    JfrProfileWriter(long maxEvents) {
        this.maxEvents = maxEvents;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        ProfileInfo info = profile.info();
        long startNanos = (info.startMillis() > 0 ? info.startMillis() : System.currentTimeMillis()) * 1_000_000L;
        // Ticks are nanoseconds; the chunk starts at the profile's start and every event is stamped with that tick.
        // A duration of 0 would make the writer take the time since its own start; 1 ns is the least it takes.
        long startTicks = System.nanoTime();
        Recording recording = Recordings.newRecording(new NonClosingOutputStream(out), settings -> settings
                .withTimestamp(startNanos)
                .withStartTicks(startTicks)
                .withDuration(Math.max(1, info.durationNanos())));
        try {
            new Events(recording, profile, startTicks).writeAll();
        } finally {
            recording.close();
        }
        out.flush();
    }

    /** The number of events a stack of {@code samples} gets when the profile holds {@code total}. */
    long eventsFor(long samples, long total) {
        if (total <= maxEvents) {
            return samples;
        }
        return (long) ((double) samples * maxEvents / total);
    }

    /** One file's worth of types and constants, each built once. */
    private final class Events {
        private final Recording recording;
        private final Profile profile;
        private final long startTicks;
        private final Types types;
        private final Type sampleType;
        private final Type settingType;
        private final Type noteType;
        private final Type stateType;
        private final Map<String, TypedValue> frameTypes = new HashMap<>();
        private final Map<Frame, TypedValue> frames = new HashMap<>();
        private final Map<Frame, TypedValue> threads = new HashMap<>();

        Events(Recording recording, Profile profile, long startTicks) {
            this.recording = recording;
            this.profile = profile;
            this.startTicks = startTicks;
            this.types = recording.getTypes();
            JfrJdkTypes.register(types);
            Type frameType = types.getType(Types.JDK.FRAME_TYPE);
            for (String name : JfrFrameKinds.ALL) {
                frameTypes.put(name, frameType.asValue(name));
            }
            stateType = recording.registerType("jdk.types.ThreadState", b -> b.addField("name", Types.Builtin.STRING));
            sampleType = recording.registerType(EXECUTION_SAMPLE, "jdk.jfr.Event", b -> b
                    .addField("startTime", Types.Builtin.LONG,
                            f -> f.addAnnotation(Types.JDK.ANNOTATION_TIMESTAMP, "TICKS"))
                    .addField("sampledThread", Types.JDK.THREAD)
                    .addField("stackTrace", Types.JDK.STACK_TRACE)
                    .addField("state", stateType));
            // async-profiler's converter reads a setting as the longs up to "id", then the name and value.
            settingType = recording.registerType(ACTIVE_SETTING, "jdk.jfr.Event", b -> b
                    .addField("startTime", Types.Builtin.LONG,
                            f -> f.addAnnotation(Types.JDK.ANNOTATION_TIMESTAMP, "TICKS"))
                    .addField("id", Types.Builtin.LONG)
                    .addField("name", Types.Builtin.STRING)
                    .addField("value", Types.Builtin.STRING));
            noteType = recording.registerType(NOTE, "jdk.jfr.Event", b -> b
                    .addField("startTime", Types.Builtin.LONG,
                            f -> f.addAnnotation(Types.JDK.ANNOTATION_TIMESTAMP, "TICKS"))
                    .addField("text", Types.Builtin.STRING));
        }

        void writeAll() {
            ProfileInfo info = profile.info();
            setting(SETTING_ENGINE, info.engine());
            setting(SETTING_EVENT, info.event());
            setting(SETTING_INTERVAL, Long.toString(info.intervalNanos()));
            for (String note : info.notes()) {
                note(note);
            }
            boolean wall = "wall".equals(info.event());
            long total = profile.totalSamples();
            long written = 0;
            for (Profile.Stack stack : profile.stacks()) {
                long events = Math.min(eventsFor(stack.samples(), total), maxEvents - written);
                if (events <= 0) {
                    continue;
                }
                Frame[] rootFirst = profile.framesOf(stack);
                TypedValue event = sample(rootFirst, wall);
                for (long i = 0; i < events; i++) {
                    recording.writeEvent(event);
                }
                written += events;
            }
            if (written < total) {
                note("mixflame wrote " + written + " of " + total + " samples as events (at most " + maxEvents
                        + " a file): each stack's count is scaled down by the same factor");
            }
        }

        private TypedValue sample(Frame[] rootFirst, boolean wall) {
            boolean threaded = rootFirst.length > 0 && rootFirst[0].type() == FrameType.THREAD;
            int first = threaded ? 1 : 0;
            TypedValue[] leafFirst = new TypedValue[rootFirst.length - first];
            for (int i = rootFirst.length - 1, j = 0; i >= first; i--, j++) {
                leafFirst[j] = frames.computeIfAbsent(rootFirst[i], this::frame);
            }
            String state;
            if (!wall) {
                state = "STATE_DEFAULT";
            } else {
                boolean running = rootFirst.length > 0 && RUNNING_STATE_FRAME.equals(rootFirst[rootFirst.length - 1].name());
                state = running ? "STATE_RUNNABLE" : "STATE_SLEEPING";
            }
            TypedValue thread = threaded ? threads.computeIfAbsent(rootFirst[0], this::thread)
                    : types.getType(Types.JDK.THREAD).nullValue();
            TypedValue trace = types.getType(Types.JDK.STACK_TRACE).asValue(b -> b
                    .putField("truncated", false)
                    .putField("frames", leafFirst));
            return sampleType.asValue(b -> b
                    .putField("startTime", startTicks)
                    .putField("sampledThread", thread)
                    .putField("stackTrace", trace)
                    .putField("state", stateType.asValue(s -> s.putField("name", state))));
        }

        private TypedValue frame(Frame frame) {
            String kind = JfrFrameKinds.toJfr(frame.type());
            boolean java = frame.type().isJava();
            String name = cleaned(frame.name());
            String className;
            String methodName;
            int dot = name.lastIndexOf('.');
            if (java && dot > 0 && dot < name.length() - 1) {
                className = name.substring(0, dot);
                methodName = name.substring(dot + 1);
            } else {
                className = java || frame.module() == null ? "" : cleaned(frame.module());
                methodName = name;
            }
            String signature = frame.type() == FrameType.KERNEL ? KERNEL_SIGNATURE : NATIVE_SIGNATURE;
            TypedValue cls = types.getType(Types.JDK.CLASS).asValue(b -> b
                    .putField("name", symbol(className))
                    .putField("modifiers", 0)
                    .putField("hidden", false));
            TypedValue method = types.getType(Types.JDK.METHOD).asValue(b -> b
                    .putField("type", cls)
                    .putField("name", symbol(methodName))
                    .putField("descriptor", symbol(signature))
                    .putField("modifiers", java ? 0 : ACC_NATIVE)
                    .putField("hidden", false));
            TypedValue type = frameTypes.get(kind);
            return types.getType(Types.JDK.STACK_FRAME).asValue(b -> b
                    .putField("method", method)
                    .putField("lineNumber", 0)
                    .putField("bytecodeIndex", 0)
                    .putField("type", type));
        }

        private TypedValue thread(Frame root) {
            Matcher m = THREAD_FRAME.matcher(root.name());
            String name = cleaned(root.name());
            long tid = 0;
            if (m.matches()) {
                name = m.group(1) == null ? "" : cleaned(m.group(1));
                tid = Long.parseLong(m.group(2));
            }
            String threadName = name;
            long osThreadId = tid;
            return types.getType(Types.JDK.THREAD).asValue(b -> b
                    .putField("osName", threadName)
                    .putField("osThreadId", osThreadId)
                    .putField("javaName", threadName));
        }

        private TypedValue symbol(String text) {
            return types.getType(Types.JDK.SYMBOL).asValue(b -> b.putField("string", text));
        }

        private void setting(String name, String value) {
            recording.writeEvent(settingType.asValue(b -> b
                    .putField("startTime", startTicks)
                    .putField("id", sampleType.getId())
                    .putField("name", name)
                    .putField("value", cleaned(value))));
        }

        private void note(String text) {
            recording.writeEvent(noteType.asValue(b -> b.putField("startTime", startTicks).putField("text", cleaned(text))));
        }
    }

    /** The text with every control character a space: names are untrusted, and readers print them in lines. */
    private static String cleaned(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (b == null) {
                    b = new StringBuilder(text);
                }
                b.setCharAt(i, ' ');
            }
        }
        return b == null ? text : b.toString();
    }
}
