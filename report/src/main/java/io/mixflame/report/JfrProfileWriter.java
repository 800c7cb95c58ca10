package io.mixflame.report;

import io.mixflame.profile.ClassNames;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.profile.SampleTimes;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a profile as a JDK Flight Recorder file: what the JDK's {@code jfr} tool, JMC, IntelliJ and
 * async-profiler's converter open. This class maps the profile to events and constants; {@link JfrChunkWriter}
 * lays out the bytes (hand-written, because async-profiler's converter reads fixed layouts and inline symbols that
 * JMC's writer cannot produce).
 *
 * <p>Each sample is one {@code jdk.ExecutionSample} event, laid out as the JDK lays it out (start time, sampled
 * thread, stack trace, thread state), so that readers that read fields by position read it too. A stack's root
 * frame {@code [name tid=N]} becomes the sampled thread instead of a frame. Java frames are methods of their
 * class; native code, kernel code, stubs and markers are methods of a pseudo-class named after their module (empty
 * when unknown), with async-profiler's pseudo-signatures, as async-profiler writes them. The thread state is
 * async-profiler's: {@code STATE_DEFAULT} in cpu profiles, {@code STATE_RUNNABLE} or {@code STATE_SLEEPING} by the
 * wall-clock state leaf frame in wall profiles (the leaf frame itself is kept).
 *
 * <p>An event carries the time its sample was taken when the profile recorded it ({@link Profile#times()}: to the
 * start of a bucket of a millisecond or more), else the profile's start (the time of writing when that is not
 * known). At most {@code maxEvents} sample events are written: past that, events are scaled down in proportion, evenly
 * over the recording (shares are kept, counts are not, and a {@code mixflame.Note} event says so). The engine, event and interval are {@code jdk.ActiveSetting} events; every note of the profile
 * (the sampler's cost) is a {@code mixflame.Note} event.
 *
 * <p>Allocation and lock profiles ({@link ProfileInfo#ALLOC}, {@link ProfileInfo#LOCK}) are written as the JDK's
 * own events, as async-profiler's converter ({@code --alloc}, {@code --lock}) and JMC read them: a stack's samples
 * as {@code jdk.ObjectAllocationSample} events whose class is the stack's {@link FrameType#CLASS} leaf and whose
 * weight is the stack's bytes per sample; lock stacks as {@code jdk.ThreadPark} events when the frame under the
 * class is {@code Unsafe.park} (the JDK's park events start there), else as {@code jdk.JavaMonitorEnter}, each
 * lasting the stack's wait per sample. Several profiles of one run go into one recording
 * ({@link #write(List, OutputStream)}).
 *
 * <p>A stack's labels (its {@link FrameType#LABEL} frames, after the thread's root frame) are not frames: each event of
 * a labelled stack is followed right away by a {@code mixflame.SampleLabels} event with the same time, thread
 * ({@code eventThread}) and stack trace ({@code stackTrace}), whose String field {@code labels} holds them as
 * {@link JfrLabels} spells them: {@code endpoint=/checkout, tenant=acme}; a sample's trace span is there too, and in
 * the fields {@code traceId}, {@code spanId} and {@code spanName} (its local root's), which JMC can group by. Events
 * without labels have none. The labels
 * are not a field of the sample events themselves because async-profiler's converter reads those by position and
 * carries on reading the next event where their known fields end: one more field, even an empty one, would make it
 * misread every file; it skips an event type it does not know by its size.
 */
public final class JfrProfileWriter implements ProfileWriter {

    /**
     * The most sample events one file holds (about 8 bytes each in the file; only distinct events are held in memory);
     * the labels event that follows a labelled sample is not counted.
     */
    public static final long MAX_EVENTS = 2_000_000;

    static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    static final String OBJECT_ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";
    static final String JAVA_MONITOR_ENTER = "jdk.JavaMonitorEnter";
    static final String THREAD_PARK = "jdk.ThreadPark";
    static final String ACTIVE_SETTING = "jdk.ActiveSetting";
    static final String NOTE = "mixflame.Note";
    static final String SAMPLE_LABELS = "mixflame.SampleLabels";
    static final String SETTING_ENGINE = "engine";
    static final String SETTING_EVENT = "event";
    static final String SETTING_INTERVAL = "interval";
    /**
     * async-profiler's pseudo-signatures of native and kernel functions; the first also stands for the unknown
     * signature of a Java method (the JDK's {@code jfr print} fails on a method without one).
     */
    static final String NATIVE_SIGNATURE = "()L;";
    static final String KERNEL_SIGNATURE = "(Lk;)L;";
    /** async-profiler's thread states, keyed by their index as async-profiler keys them. */
    static final String STATE_DEFAULT = "STATE_DEFAULT";
    static final String STATE_RUNNABLE = "STATE_RUNNABLE";
    static final String STATE_SLEEPING = "STATE_SLEEPING";
    private static final List<String> STATES = List.of(STATE_DEFAULT, STATE_RUNNABLE, STATE_SLEEPING);
    private static final int ACC_NATIVE = 0x100;
    private static final String RUNNING_STATE_FRAME = "[running]";
    /** The Java frame a JDK park event's stack starts at ({@code jdk/internal/misc/Unsafe}, {@code sun/misc/Unsafe}). */
    private static final String PARK_METHOD = "/Unsafe.park";

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
        write(List.of(profile), out);
    }

    /** Writes the profiles of one run (cpu, alloc, lock: at least one) as one recording, each as its own events. */
    public void write(List<Profile> profiles, OutputStream out) throws IOException {
        long startMillis = Long.MAX_VALUE;
        long durationNanos = 0;
        int events = 0;
        SampleTimes[] runs = new SampleTimes[profiles.size()];
        for (int i = 0; i < runs.length; i++) {
            ProfileInfo info = profiles.get(i).info();
            if (info.startMillis() > 0) {
                startMillis = Math.min(startMillis, info.startMillis());
            }
            durationNanos = Math.max(durationNanos, info.durationNanos());
            runs[i] = profiles.get(i).sampleRuns();
            // Settings, notes and the bound's note besides the samples' runs.
            events += runs[i].size() + 4 + info.notes().size();
        }
        long startNanos = (startMillis != Long.MAX_VALUE ? startMillis : System.currentTimeMillis()) * 1_000_000L;
        JfrChunkWriter chunk = new JfrChunkWriter(startNanos, durationNanos, events);
        JfrConstantPools pools = new JfrConstantPools(JfrFrameKinds.ALL, STATES);
        for (int i = 0; i < runs.length; i++) {
            new Events(chunk, pools, profiles.get(i)).addAll(runs[i]);
        }
        chunk.write(pools, out);
        out.flush();
    }

    /**
     * The events for runs of a stack's samples: all of them while the profile holds at most {@code maxEvents}; else
     * each stack gets its share of the bound, spread over its runs in turn (fractions carried to the next run), so
     * that thinning keeps both the stacks' shares and their spread over time.
     */
    private final class Scaled {
        private final long[] samples;
        private final long[] events;
        private final long[] seen;
        private final long[] given;
        long written;

        Scaled(List<Profile.Stack> stacks, long total) {
            samples = new long[stacks.size()];
            events = new long[stacks.size()];
            seen = new long[stacks.size()];
            given = new long[stacks.size()];
            long cumulative = 0;
            long granted = 0;
            for (int s = 0; s < samples.length; s++) {
                samples[s] = stacks.get(s).samples();
                cumulative += samples[s];
                long due = total <= maxEvents ? cumulative : (long) ((double) cumulative * maxEvents / total);
                events[s] = Math.max(0, Math.min(due, maxEvents) - granted);
                granted += events[s];
            }
        }

        long next(int stack, long run) {
            seen[stack] += run;
            long due = samples[stack] == 0 ? 0 : (long) ((double) seen[stack] * events[stack] / samples[stack]);
            long n = Math.max(0, Math.min(due, events[stack]) - given[stack]);
            given[stack] += n;
            written += n;
            return n;
        }
    }

    /** One file's events, each distinct one built once. */
    private final class Events {
        private final JfrChunkWriter chunk;
        private final JfrConstantPools pools;
        private final Profile profile;
        private final Map<Frame, Long> methods = new HashMap<>();
        private final long eventType;
        private long[] typeOfStack;
        /** Each stack's {@code mixflame.SampleLabels} fields after the time; null for a stack without labels. */
        private byte[][] labelsOfStack;

        Events(JfrChunkWriter chunk, JfrConstantPools pools, Profile profile) {
            this.chunk = chunk;
            this.pools = pools;
            this.profile = profile;
            this.eventType = switch (profile.info().event()) {
                case ProfileInfo.ALLOC -> JfrMetadata.OBJECT_ALLOCATION_SAMPLE;
                case ProfileInfo.LOCK -> JfrMetadata.JAVA_MONITOR_ENTER;
                default -> JfrMetadata.EXECUTION_SAMPLE;
            };
        }

        void addAll(SampleTimes runs) throws IOException {
            ProfileInfo info = profile.info();
            setting(SETTING_ENGINE, info.engine());
            setting(SETTING_EVENT, info.event());
            setting(SETTING_INTERVAL, Long.toString(info.intervalNanos()));
            for (String note : info.notes()) {
                note(note);
            }
            boolean wall = "wall".equals(info.event());
            long total = profile.totalSamples();
            List<Profile.Stack> stacks = profile.stacks();
            // Each stack's event fields after the time, built once; samples without a time go at the start.
            byte[][] fields = new byte[stacks.size()][];
            typeOfStack = new long[stacks.size()];
            labelsOfStack = new byte[stacks.size()][];
            Scaled scaled = new Scaled(stacks, total);
            for (int i = 0; i < runs.size(); i++) {
                int s = runs.stack(i);
                long at = runs.epochNanos(i);
                long ticks = at == SampleTimes.NO_TIME ? JfrChunkWriter.START_TICKS : chunk.ticksAt(at);
                add(fields, s, wall, ticks, scaled.next(s, runs.count(i)));
            }
            long written = scaled.written;
            if (written < total) {
                note("mixflame wrote " + written + " of " + total + " samples as events (at most " + maxEvents
                        + " a file): each stack's count is scaled down by the same factor");
            }
        }

        private void add(byte[][] fields, int stack, boolean wall, long ticks, long events) throws IOException {
            if (events <= 0) {
                return;
            }
            if (fields[stack] == null) {
                Profile.Stack s = profile.stacks().get(stack);
                Frame[] rootFirst = profile.framesOf(s);
                typeOfStack[stack] = eventType;
                if (eventType == JfrMetadata.EXECUTION_SAMPLE) {
                    fields[stack] = sample(rootFirst, wall, stack);
                } else {
                    long perSample = s.samples() == 0 ? s.weightNanos() : s.weightNanos() / s.samples();
                    fields[stack] = classEvent(rootFirst, perSample, stack);
                }
            }
            chunk.add(typeOfStack[stack], ticks, fields[stack], JfrMetadata.SAMPLE_LABELS, labelsOfStack[stack], events);
        }

        /**
         * An allocation or lock event's fields after its time, the class being the stack's leaf: for an allocation
         * thread, stack trace, class, weight; for a monitor duration, thread, stack trace, class, previous owner,
         * address; for a park duration, thread, stack trace, class, timeout, until, address (the JDK's layouts).
         */
        private byte[] classEvent(Frame[] rootFirst, long perSample, int stack) throws IOException {
            boolean threaded = rootFirst.length > 0 && rootFirst[0].type() == FrameType.THREAD;
            int labelsEnd = LabelFrames.rootEnd(rootFirst);
            int end = rootFirst.length;
            long classKey = 0;
            if (end > labelsEnd && rootFirst[end - 1].type() == FrameType.CLASS) {
                end--;
                classKey = pools.classKey(ClassNames.internal(cleaned(rootFirst[end].name())));
            } else if (end > labelsEnd && rootFirst[end - 1].type() == FrameType.MARKER) {
                // A leaf that names no class ([no blocker]: a park without one) is the event's class left empty.
                end--;
            }
            long thread = threaded ? thread(rootFirst[0]) : 0;
            long trace = stackTrace(rootFirst, labelsEnd, end);
            labels(stack, thread, trace, rootFirst, threaded ? 1 : 0, labelsEnd);
            JfrBuffer b = JfrChunkWriter.fields();
            if (eventType == JfrMetadata.OBJECT_ALLOCATION_SAMPLE) {
                return b.putVarLong(thread).putVarLong(trace).putVarLong(classKey).putVarLong(perSample).toByteArray();
            }
            // Ticks are nanoseconds (JfrChunkWriter.TICKS_PER_SECOND).
            b.putVarLong(perSample).putVarLong(thread).putVarLong(trace).putVarLong(classKey);
            if (end > labelsEnd && rootFirst[end - 1].name().endsWith(PARK_METHOD)) {
                typeOfStack[stack] = JfrMetadata.THREAD_PARK;
                return b.putVarLong(0).putVarLong(0).putVarLong(0).toByteArray();
            }
            return b.putVarLong(0).putVarLong(0).toByteArray();
        }

        /** An execution sample's fields after its time: sampled thread, stack trace, thread state. */
        private byte[] sample(Frame[] rootFirst, boolean wall, int stack) throws IOException {
            boolean threaded = rootFirst.length > 0 && rootFirst[0].type() == FrameType.THREAD;
            int labelsEnd = LabelFrames.rootEnd(rootFirst);
            String state;
            if (!wall) {
                state = STATE_DEFAULT;
            } else {
                boolean running = rootFirst.length > 0
                        && RUNNING_STATE_FRAME.equals(rootFirst[rootFirst.length - 1].name());
                state = running ? STATE_RUNNABLE : STATE_SLEEPING;
            }
            long thread = threaded ? thread(rootFirst[0]) : 0;
            long trace = stackTrace(rootFirst, labelsEnd, rootFirst.length);
            labels(stack, thread, trace, rootFirst, threaded ? 1 : 0, labelsEnd);
            return JfrChunkWriter.fields()
                    .putVarLong(thread)
                    .putVarLong(trace)
                    .putVarLong(STATES.indexOf(state))
                    .toByteArray();
        }

        /**
         * Keeps the {@code mixflame.SampleLabels} fields after the time for the stack's events, when its frames
         * {@code [from, to)} (the labels after its thread) are any: thread, stack trace, labels.
         */
        private void labels(int stack, long thread, long trace, Frame[] rootFirst, int from, int to)
                throws IOException {
            String labels = JfrLabels.format(rootFirst, from, to);
            if (labels != null) {
                // A span's ids and its local root's name in fields of their own too, which JMC can group by.
                String traceId = null;
                String spanId = null;
                String spanName = null;
                for (int i = from; i < to; i++) {
                    String key = rootFirst[i].labelKey();
                    if (key.equals(SpanLabels.TRACE_ID)) {
                        traceId = rootFirst[i].labelValue();
                    } else if (key.equals(SpanLabels.SPAN_ID)) {
                        spanId = rootFirst[i].labelValue();
                    } else if (key.equals(SpanLabels.SPAN_NAME)) {
                        spanName = cleaned(rootFirst[i].labelValue());
                    }
                }
                labelsOfStack[stack] = JfrChunkWriter.fields().putVarLong(thread).putVarLong(trace)
                        .putString(cleaned(labels)).putString(traceId).putString(spanId).putString(spanName)
                        .toByteArray();
            }
        }

        /** The key of the stack trace of the frames from {@code first} to before {@code end}, root first. */
        private long stackTrace(Frame[] rootFirst, int first, int end) throws IOException {
            long[] leafFirst = new long[end - first];
            int[] kinds = new int[leafFirst.length];
            int[] lines = new int[leafFirst.length];
            for (int i = end - 1, j = 0; i >= first; i--, j++) {
                Frame method = rootFirst[i].atLine(0);
                Long key = methods.get(method);
                if (key == null) {
                    key = method(method);
                    methods.put(method, key);
                }
                leafFirst[j] = key;
                lines[j] = rootFirst[i].line();
                kinds[j] = JfrFrameKinds.key(rootFirst[i].type());
            }
            return pools.stackTrace(leafFirst, lines, kinds);
        }

        private long method(Frame frame) throws IOException {
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
            return pools.method(className, methodName, signature, java ? 0 : ACC_NATIVE);
        }

        private long thread(Frame root) throws IOException {
            if (root.threadName() == null) {
                return pools.thread(cleaned(root.name()), 0);
            }
            return pools.thread(cleaned(root.threadName()), root.threadId());
        }

        private void setting(String name, String value) throws IOException {
            chunk.add(JfrMetadata.ACTIVE_SETTING, JfrChunkWriter.START_TICKS, JfrChunkWriter.fields()
                    .putVarLong(eventType).putString(name).putString(cleaned(value)).toByteArray(), 1);
        }

        private void note(String text) throws IOException {
            chunk.add(JfrMetadata.NOTE, JfrChunkWriter.START_TICKS,
                    JfrChunkWriter.fields().putString(cleaned(text)).toByteArray(), 1);
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
