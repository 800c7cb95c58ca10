package io.mixflame.report;

import static io.mixflame.report.TestProfiles.frame;
import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.convert.JfrToPprof;
import one.jfr.JfrReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmc.common.IMCFrame;
import org.openjdk.jmc.common.IMCStackTrace;
import org.openjdk.jmc.common.IMCThread;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.Attribute;
import org.openjdk.jmc.common.item.IAttribute;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;

/**
 * Writes profiles as JFR and reads them back with three readers that share no code with the writer: the JDK's
 * {@code jdk.jfr.consumer}, JDK Mission Control's parser and async-profiler's converter. Each must find the stacks
 * and counts of the profile's collapsed output.
 */
class JfrProfileWriterTest {

    private static final ReportOptions NO_OPTIONS = ReportOptions.DEFAULT;
    private static final ProfileInfo CPU = TestProfiles.JFR_CPU.withNote("sampler 1.5% of one core");

    @TempDir
    Path dir;

    /** Every kind of frame, a thread root on most stacks, one stack without. */
    static Profile mixed() {
        Frame main = Frame.thread("main", 4242);
        Frame worker = Frame.thread("pool-1 worker", 77);
        Frame run = frame("java/lang/Thread.run", FrameType.INTERPRETED);
        Frame deflate = frame("java/util/zip/Deflater.deflateBytesBytes", FrameType.JIT_COMPILED);
        return TestProfiles.with(CPU)
                .add(5, main, run, jit("a/B.hot"))
                .add(3, main, run, frame("a/B.inl", FrameType.INLINED), frame("a/C.c1", FrameType.C1_COMPILED))
                .add(4, worker, run, deflate, Frame.nativeCode("Java_java_util_zip_Deflater_deflateBytesBytes",
                        "libzip.so", 0x1230), Frame.nativeCode("deflate", "libz.so.1", 0x4560))
                .add(2, worker, deflate, Frame.nativeCode("write", "libc.so.6", 0x10),
                        frame("do_syscall_64", FrameType.KERNEL), frame("ksys_write", FrameType.KERNEL))
                .add(1, frame("[unknown]", FrameType.MARKER), frame("VM Thread loop", FrameType.NATIVE))
                .add(1, main, frame("StubRoutines::call_stub", FrameType.STUB), jit("a/B.hot"))
                .build();
    }

    private Path write(Profile profile) throws IOException {
        Path file = dir.resolve("p.jfr");
        ProfileFiles.write(profile, file, NO_OPTIONS);
        return file;
    }

    @Test
    void jdkReaderFindsTheCollapsedStacksThroughTheProfileReader() throws IOException {
        Profile profile = mixed();

        Profile read = ProfileFiles.read(write(profile), w -> { throw new AssertionError(w); });

        assertThat(TestProfiles.collapsedStacks(read)).isEqualTo(TestProfiles.collapsedStacks(profile));
        assertThat(read.info().engine()).isEqualTo("jfr");
        assertThat(read.info().event()).isEqualTo("cpu");
        assertThat(read.info().intervalNanos()).isEqualTo(10_000_000L);
        assertThat(read.info().notes()).containsExactly("sampler 1.5% of one core");
        assertThat(read.info().startMillis()).isEqualTo(CPU.startMillis());
        assertThat(read.totalWeightNanos()).isEqualTo(read.totalSamples() * 10_000_000L);
        // Native frames keep their module: it is the pseudo-class.
        assertThat(read.frames()).contains(Frame.nativeCode("deflate", "libz.so.1", 0));
    }

    @Test
    void jdkReaderSeesTheJdksFrameTypesThreadsStatesAndTimes() throws IOException {
        Path file = write(mixed());

        Set<String> types = new HashSet<>();
        Map<String, String> typeOf = new HashMap<>();
        Set<String> threads = new HashSet<>();
        Set<String> states = new HashSet<>();
        Set<Instant> times = new HashSet<>();
        long samples = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            samples++;
            times.add(e.getStartTime());
            states.add(e.getString("state"));
            if (e.getThread("sampledThread") != null) {
                threads.add(e.getThread("sampledThread").getJavaName() + "/" + e.getThread("sampledThread").getOSThreadId());
            }
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                types.add(String.valueOf(f.getType()));
                typeOf.put(f.getMethod().getName(), String.valueOf(f.getType()));
            }
        }

        assertThat(samples).isEqualTo(16);
        assertThat(threads).containsExactlyInAnyOrder("main/4242", "pool-1 worker/77");
        assertThat(states).containsExactly("STATE_DEFAULT");
        assertThat(times).containsExactly(Instant.ofEpochMilli(CPU.startMillis()));
        assertThat(typeOf).containsEntry("hot", "JIT compiled").containsEntry("inl", "Inlined")
                .containsEntry("c1", "C1 compiled").containsEntry("deflate", "Native")
                .containsEntry("ksys_write", "Kernel").containsEntry("run", "Interpreted")
                .containsEntry("[unknown]", "Native").containsEntry("StubRoutines::call_stub", "Native");
    }

    @Test
    void theJdksJfrToolPrintsEverySample() throws Exception {
        Path file = write(mixed());

        String printed = runJfrTool("print", "--events", "jdk.ExecutionSample", file.toString());

        assertThat(printed.split("jdk.ExecutionSample \\{", -1)).hasSize(16 + 1);
        assertThat(printed).contains("deflate", "a.B.hot", "pool-1 worker");
    }

    @Test
    void theJdksJfrToolSummarizesTheRecording() throws Exception {
        Path file = write(mixed());

        String summary = runJfrTool("summary", file.toString());

        assertThat(summary).containsPattern("(?m)^\\s*jdk\\.ExecutionSample\\s+16\\s")
                .containsPattern("(?m)^\\s*jdk\\.ActiveSetting\\s+3\\s")
                .containsPattern("(?m)^\\s*mixflame\\.Note\\s+1\\s");
    }

    private static String runJfrTool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "jfr").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(printed).isZero();
        return printed;
    }

    @Test
    void jmcParserFindsTheCollapsedStacks() throws Exception {
        Profile profile = mixed();
        Path file = write(profile);

        IItemCollection events = JfrLoaderToolkit.loadEvents(file.toFile())
                .apply(ItemFilters.type("jdk.ExecutionSample"));
        Map<String, Long> stacks = new TreeMap<>();
        for (IItemIterable items : events) {
            IMemberAccessor<IMCStackTrace, IItem> traces = JfrAttributes.EVENT_STACKTRACE.getAccessor(items.getType());
            IMemberAccessor<IMCThread, IItem> threads = JfrAttributes.EVENT_THREAD.getAccessor(items.getType());
            for (IItem item : items) {
                List<String> names = new ArrayList<>();
                IMCThread thread = threads.getMember(item);
                if (thread != null) {
                    names.add("[" + thread.getThreadName() + " tid=" + osThreadId(file, thread.getThreadName()) + "]");
                }
                List<? extends IMCFrame> leafFirst = traces.getMember(item).getFrames();
                for (int i = leafFirst.size() - 1; i >= 0; i--) {
                    names.add(collapsedName(leafFirst.get(i)));
                }
                stacks.merge(String.join(";", names), 1L, Long::sum);
            }
        }

        assertThat(stacks).isEqualTo(TestProfiles.collapsedStacks(profile));
    }

    /** JMC's thread has no OS id accessor; the writer's ids are checked by the JDK's reader above. */
    private static long osThreadId(Path file, String threadName) {
        return switch (threadName) {
            case "main" -> 4242;
            case "pool-1 worker" -> 77;
            default -> throw new AssertionError("unexpected thread " + threadName + " in " + file);
        };
    }

    private static String collapsedName(IMCFrame frame) {
        String method = frame.getMethod().getMethodName();
        String className = frame.getMethod().getType().getFullName();
        // JMC names the JDK's types as the JDK does, others in upper case with underscores: compared in that form.
        return switch (frame.getType().getName().toUpperCase(java.util.Locale.ROOT).replace(' ', '_')) {
            case "JIT_COMPILED" -> className.replace('.', '/') + "." + method + "_[j]";
            case "INLINED" -> className.replace('.', '/') + "." + method + "_[i]";
            case "C1_COMPILED" -> className.replace('.', '/') + "." + method + "_[1]";
            case "KERNEL" -> method + "_[k]";
            case "NATIVE" -> method;
            case "INTERPRETED" -> className.replace('.', '/') + "." + method + "_[0]";
            default -> throw new AssertionError("frame type " + frame.getType().getName());
        };
    }

    @Test
    void asyncProfilersConverterFindsTheCollapsedStacksWithTheirThreads() throws IOException {
        Profile profile = mixed();
        Path file = write(profile);

        Map<String, Long> converted = convertToCollapsed(file);

        // The converter puts a thread root on every stack: [tid=0] where the event names no thread.
        Map<String, Long> expected = new TreeMap<>();
        TestProfiles.collapsedStacks(profile).forEach((stack, count) ->
                expected.merge(stack.startsWith("[unknown]") ? "[tid=0];" + stack : stack, count, Long::sum));
        assertThat(converted).isEqualTo(expected).containsKey("[pool-1 worker tid=77];java/lang/Thread.run_[0];"
                + "java/util/zip/Deflater.deflateBytesBytes_[j];Java_java_util_zip_Deflater_deflateBytesBytes;deflate");
    }

    @Test
    void asyncProfilersPprofConverterFindsTheStacksThreadsAndCounts() throws IOException {
        Profile profile = mixed();
        Path file = write(profile);
        Arguments args = new Arguments();
        args.threads = true;

        PprofWriterTest.Decoded d = PprofWriterTest.decodeForeign(convert(file, reader -> {
            JfrToPprof converter = new JfrToPprof(reader, args);
            converter.convert();
            return converter::dump;
        }));

        Map<String, Long> stacks = new TreeMap<>();
        for (int i = 0; i < d.sampleLocations.size(); i++) {
            List<String> rootFirst = new ArrayList<>(d.sampleFrames(i));
            java.util.Collections.reverse(rootFirst);
            String thread = d.sampleLabels.get(i).get("thread");
            if (thread != null) {
                rootFirst.add(0, thread);
            }
            stacks.merge(String.join(";", rootFirst), d.sampleValues.get(i)[0], Long::sum);
        }
        // pprof function names carry no frame kind: the collapsed names without their suffixes.
        Map<String, Long> expected = new TreeMap<>();
        TestProfiles.collapsedStacks(profile).forEach((stack, count) ->
                expected.merge(stack.replaceAll("_\\[[0-9a-z]]($|;)", "$1"), count, Long::sum));
        assertThat(stacks).isEqualTo(expected).containsKey("[main tid=4242];java/lang/Thread.run;a/B.hot");
    }

    @Test
    void threadIdsPastAnIntOrSharedByTwoNamesKeepTheirThreads() throws IOException {
        Profile profile = TestProfiles.with(CPU)
                .add(3, Frame.thread("big", 123_456_789_012L), jit("a/B.x"))
                .add(2, Frame.thread("first", 5), jit("a/B.y"))
                .add(1, Frame.thread("second", 5), jit("a/B.z"))
                .build();
        Path file = write(profile);

        // The JDK's reader gets every name and id back.
        assertThat(TestProfiles.collapsedStacks(ProfileFiles.read(file, w -> { })))
                .isEqualTo(TestProfiles.collapsedStacks(profile));
        // The converter names threads by key: a thread keeps its id as the key when no other thread has it and it
        // fits an int; otherwise it gets a key of its own, still one per thread.
        Map<String, Long> converted = convertToCollapsed(file);
        Map<String, Long> byThreadName = new TreeMap<>();
        converted.forEach((stack, count) -> byThreadName.merge(stack.replaceFirst(" tid=\\d+].*", ""), count, Long::sum));
        assertThat(byThreadName).containsOnly(Map.entry("[big", 3L), Map.entry("[first", 2L), Map.entry("[second", 1L));
        assertThat(converted.keySet()).containsOnlyOnce("[first tid=5];a/B.y_[j]").hasSize(3);
    }

    private static Map<String, Long> convertToCollapsed(Path file) throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        args.threads = true;
        byte[] collapsed = convert(file, reader -> {
            JfrToFlame converter = new JfrToFlame(reader, args);
            converter.convert();
            return converter::dump;
        });
        Map<String, Long> stacks = new TreeMap<>();
        for (String line : new String(collapsed, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                int space = line.lastIndexOf(' ');
                stacks.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
            }
        }
        return stacks;
    }

    /** A converter run on a reader of the file; what it gives back writes the result. */
    private interface Conversion {
        IOConsumer<OutputStream> run(JfrReader reader) throws IOException;
    }

    /** The converter's output for the file (its reader closed before the output is written, as its main does). */
    private static byte[] convert(Path file, Conversion conversion) throws IOException {
        IOConsumer<OutputStream> dump;
        try (JfrReader reader = new JfrReader(file.toString())) {
            dump = conversion.run(reader);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        dump.accept(out);
        return out.toByteArray();
    }

    @Test
    void wallSamplesCarryAsyncProfilersThreadStatesAndKeepTheStateFrame() throws IOException {
        Frame t = Frame.thread("w", 9);
        Profile wall = TestProfiles.with(new ProfileInfo("perf", "wall", 20_000_000L, 1_700_000_000_000L, 0, List.of()))
                .add(3, t, jit("a/B.work"), frame("[running]", FrameType.MARKER))
                .add(2, t, jit("a/B.waits"), Frame.nativeCode("futex", "libc.so.6", 0),
                        frame("[blocked in futex]", FrameType.MARKER))
                .build();
        Path file = write(wall);

        Map<String, Long> stateCounts = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
                List<RecordedFrame> frames = e.getStackTrace().getFrames();
                stateCounts.merge(e.getString("state") + " " + frames.get(0).getMethod().getName(), 1L, Long::sum);
            }
        }

        assertThat(stateCounts).containsOnly(Map.entry("STATE_RUNNABLE [running]", 3L),
                Map.entry("STATE_SLEEPING [blocked in futex]", 2L));
        assertThat(TestProfiles.collapsedStacks(ProfileFiles.read(file, w -> { })))
                .isEqualTo(TestProfiles.collapsedStacks(wall));
    }

    @Test
    void pastTheBoundOnEventsEachStackIsScaledDownAndANoteSaysSo() throws IOException {
        Profile profile = TestProfiles.with(CPU).addJava(300, "a;b").addJava(100, "a;c").build();
        Path file = dir.resolve("bounded.jfr");
        try (OutputStream out = Files.newOutputStream(file)) {
            new JfrProfileWriter(40).write(profile, out);
        }

        Profile read = ProfileFiles.read(file, w -> { });

        assertThat(TestProfiles.collapsedStacks(read)).containsOnly(Map.entry("a_[j];b_[j]", 30L),
                Map.entry("a_[j];c_[j]", 10L));
        assertThat(read.info().notes()).anyMatch(n -> n.contains("wrote 40 of 400 samples"));
    }

    /** Two threads' samples at known times: main at 0, 10, 20 ms, worker at 15 ms (two samples), after T0. */
    private static Profile timed() {
        io.mixflame.profile.ProfileAccumulator acc = new io.mixflame.profile.ProfileAccumulator();
        acc.recordTimes();
        long t0 = CPU.startMillis() * 1_000_000L;
        Frame[] main = {Frame.thread("main", 1), jit("a/B.run")};
        Frame[] worker = {Frame.thread("worker", 2), jit("a/B.work")};
        acc.add(main, 2, 1, 10_000_000L, t0 + 20_000_000L);
        acc.add(main, 2, 1, 10_000_000L, t0);
        acc.add(worker, 2, 2, 20_000_000L, t0 + 15_000_000L);
        acc.add(main, 2, 1, 10_000_000L, t0 + 10_000_000L);
        return acc.snapshot(CPU);
    }

    @Test
    void eventsCarryTheTimesTheirSamplesWereTakenAndReadBackWithThem() throws IOException {
        Profile profile = timed();
        Path file = write(profile);

        List<String> events = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
                long ms = java.time.Duration.between(Instant.ofEpochMilli(CPU.startMillis()), e.getStartTime()).toMillis();
                events.add(ms + " " + e.getThread("sampledThread").getJavaName());
            }
        }
        events.sort(java.util.Comparator.comparingLong(s -> Long.parseLong(s.split(" ")[0])));
        assertThat(events).containsExactly("0 main", "10 main", "15 worker", "15 worker", "20 main");

        Profile read = ProfileFiles.read(file, w -> { });
        List<String> times = new ArrayList<>();
        for (int i = 0; i < read.times().size(); i++) {
            Frame[] frames = read.framesOf(read.stacks().get(read.times().stack(i)));
            times.add((read.times().epochNanos(i) / 1_000_000L - CPU.startMillis()) + " " + frames[0].name() + " "
                    + read.times().count(i));
        }
        assertThat(times).containsExactly("0 [main tid=1] 1", "10 [main tid=1] 1", "15 [worker tid=2] 2",
                "20 [main tid=1] 1");
    }

    @Test
    void pastTheBoundTimedEventsAreThinnedEvenlyOverTheRecording() throws IOException {
        io.mixflame.profile.ProfileAccumulator acc = new io.mixflame.profile.ProfileAccumulator();
        acc.recordTimes();
        long t0 = CPU.startMillis() * 1_000_000L;
        for (int i = 0; i < 400; i++) {
            acc.add(new Frame[] {jit(i % 4 == 0 ? "a/B.rare" : "a/B.often")}, 1, 1, 10_000_000L, t0 + i * 1_000_000L);
        }
        Path file = dir.resolve("thinned.jfr");
        try (OutputStream out = Files.newOutputStream(file)) {
            new JfrProfileWriter(40).write(acc.snapshot(CPU), out);
        }

        List<Long> millis = new ArrayList<>();
        Map<String, Long> perMethod = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
                millis.add(java.time.Duration.between(Instant.ofEpochMilli(CPU.startMillis()), e.getStartTime()).toMillis());
                perMethod.merge(e.getStackTrace().getFrames().get(0).getMethod().getName(), 1L, Long::sum);
            }
        }
        assertThat(millis).hasSize(40);
        assertThat(millis.stream().filter(ms -> ms < 200)).as("first half").hasSize(20);
        assertThat(perMethod).containsExactly(Map.entry("often", 30L), Map.entry("rare", 10L));
    }

    @Test
    void eventsWhoseSizeTakesOneTwoOrThreeBytesAreFramedSoEveryReaderFindsThemAll() throws IOException {
        // An event's size counts the varint that holds it: bodies near 127 and 16 383 bytes are where a miscount shows.
        List<String> notes = new ArrayList<>();
        for (int length : new int[] {1, 120, 123, 124, 125, 126, 127, 200, 16_370, 16_376, 16_380, 20_000}) {
            notes.add("n".repeat(length));
        }
        ProfileInfo info = CPU;
        for (String note : notes) {
            info = info.withNote(note);
        }
        Profile profile = TestProfiles.with(info).add(7, Frame.thread("main", 1), jit("a/B.hot")).build();
        Path file = write(profile);

        Profile read = ProfileFiles.read(file, w -> { throw new AssertionError(w); });
        assertThat(read.info().notes()).containsAll(notes);
        assertThat(TestProfiles.collapsedStacks(read)).isEqualTo(TestProfiles.collapsedStacks(profile));
        long samples = 0;
        try (JfrReader reader = new JfrReader(file.toString())) {
            while (reader.readEvent(one.jfr.event.ExecutionSample.class) != null) {
                samples++;
            }
        }
        assertThat(samples).as("execution samples async-profiler's reader finds").isEqualTo(7);
    }

    @Test
    void namesWithControlCharactersAreWrittenWithSpaces() throws IOException {
        Profile profile = TestProfiles.with(CPU)
                .add(1, Frame.thread("evil\nthread", 1), jit("a/B.m\r\u0007x")).build();

        Profile read = ProfileFiles.read(write(profile), w -> { });

        assertThat(TestProfiles.collapsedStacks(read)).containsOnlyKeys("[evil thread tid=1];a/B.m  x_[j]");
    }

    @Test
    void aTruncatedOrCorruptRecordingIsOneLineNamingTheFile() throws IOException {
        byte[] whole = Files.readAllBytes(write(mixed()));
        Path truncated = dir.resolve("truncated.jfr");
        Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length / 2));
        Path corrupt = dir.resolve("corrupt.jfr");
        byte[] bad = whole.clone();
        for (int i = 68; i < bad.length; i += 7) {
            bad[i] = (byte) 0xff;
        }
        Files.write(corrupt, bad);

        for (Path p : List.of(truncated, corrupt)) {
            assertThatThrownBy(() -> ProfileFiles.read(p, w -> { }))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith(p.toString() + ": is not a readable JFR recording")
                    .hasMessageNotContaining("\n");
        }
    }

    /** The labelled profile with its label frames taken out: what a recording without labels holds. */
    private static Profile withoutLabels(Profile profile) {
        TestProfiles unlabelled = TestProfiles.with(profile.info());
        for (Profile.Stack s : profile.stacks()) {
            unlabelled.add(s.samples(), java.util.Arrays.stream(profile.framesOf(s))
                    .filter(f -> f.type() != FrameType.LABEL).toArray(Frame[]::new));
        }
        return unlabelled.build();
    }

    @Test
    void aSamplesSpanHasFieldsOfItsOwnInItsLabelsEventAndReadsBack() throws IOException {
        Profile spans = TestProfiles.with(CPU)
                .add(2, Frame.thread("main", 1), Frame.label("span_id", "b7ad6b7169203331"),
                        Frame.label("span_name", "GET /cpu"), Frame.label("trace_id", "0af7651916cd43dd8448eb211c80319c"),
                        TestProfiles.jit("a/Shop.burn"))
                .add(1, Frame.thread("main", 1), Frame.label("endpoint", "/x"), TestProfiles.jit("a/Shop.idle"))
                .build();
        Path file = write(spans);

        List<String> fields = new java.util.ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals(JfrProfileWriter.SAMPLE_LABELS)) {
                fields.add(e.getString("traceId") + " " + e.getString("spanId") + " " + e.getString("spanName"));
            }
        }
        assertThat(fields).containsOnly("0af7651916cd43dd8448eb211c80319c b7ad6b7169203331 GET /cpu",
                "null null null");
        Profile back = ProfileFiles.read(file, w -> { });
        assertThat(back.frames()).contains(Frame.label("span_id", "b7ad6b7169203331"),
                Frame.label("trace_id", "0af7651916cd43dd8448eb211c80319c"));
    }

    @Test
    void eachLabelledSampleIsFollowedByItsLabelsEventWhichTheJdkReads() throws IOException {
        Path file = write(TestProfiles.labelled());

        List<RecordedEvent> all = RecordingFile.readAllEvents(file);
        Map<String, Long> samples = new TreeMap<>();
        long labelEvents = 0;
        for (int i = 0; i < all.size(); i++) {
            RecordedEvent e = all.get(i);
            if (e.getEventType().getName().equals(JfrProfileWriter.SAMPLE_LABELS)) {
                labelEvents++;
            }
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            // The sample event itself is the JDK's, field for field.
            assertThat(e.hasField("labels")).isFalse();
            RecordedEvent next = i + 1 < all.size() ? all.get(i + 1) : null;
            String labels = "-";
            if (next != null && next.getEventType().getName().equals(JfrProfileWriter.SAMPLE_LABELS)) {
                labels = next.getString("labels");
                assertThat(next.getStartTime()).isEqualTo(e.getStartTime());
                assertThat(next.getThread() == null ? null : next.getThread().getOSThreadId())
                        .isEqualTo(e.getThread("sampledThread") == null ? null
                                : e.getThread("sampledThread").getOSThreadId());
                assertThat(methods(next)).isEqualTo(methods(e));
            }
            samples.merge(labels + " " + methods(e), 1L, Long::sum);
        }

        assertThat(samples).containsOnly(
                Map.entry("endpoint=/checkout, tenant=acme [query, checkout]", 5L),
                Map.entry("endpoint=/search, tenant=acme [query, search]", 3L),
                Map.entry("endpoint=/checkout [checkout]", 2L),
                Map.entry("endpoint=/search [search]", 1L),
                Map.entry("- [run]", 4L));
        assertThat(labelEvents).isEqualTo(5 + 3 + 2 + 1);
    }

    private static List<String> methods(RecordedEvent e) {
        return e.getStackTrace().getFrames().stream().map(f -> f.getMethod().getName()).toList();
    }

    @Test
    void theProfileReaderGivesTheLabelsBackAsLabelFrames() throws IOException {
        Profile profile = TestProfiles.labelled();

        Profile read = ProfileFiles.read(write(profile), w -> { throw new AssertionError(w); });

        assertThat(TestProfiles.typedStacks(read)).isEqualTo(TestProfiles.typedStacks(profile));
    }

    @Test
    void asyncProfilersConvertersIgnoreTheLabelsAndFindTheSameStacksAsWithout() throws IOException {
        Profile labelled = TestProfiles.labelled();
        Path withLabels = write(labelled);
        Map<String, Long> converted = convertToCollapsed(withLabels);
        Path plain = dir.resolve("plain.jfr");
        ProfileFiles.write(withoutLabels(labelled), plain, NO_OPTIONS);

        assertThat(converted).isEqualTo(convertToCollapsed(plain))
                .containsEntry("[main tid=1];a/Shop.checkout_[j];a/Db.query_[j]", 5L);
        long samples = 0;
        try (JfrReader reader = new JfrReader(withLabels.toString())) {
            while (reader.readEvent(one.jfr.event.ExecutionSample.class) != null) {
                samples++;
            }
        }
        assertThat(samples).isEqualTo(labelled.totalSamples());
        Arguments args = new Arguments();
        args.threads = true;
        PprofWriterTest.Decoded d = PprofWriterTest.decodeForeign(convert(withLabels, reader -> {
            JfrToPprof converter = new JfrToPprof(reader, args);
            converter.convert();
            return converter::dump;
        }));
        assertThat(d.sampleValues.stream().mapToLong(v -> v[0]).sum()).isEqualTo(labelled.totalSamples());
    }

    @Test
    void jmcReadsTheLabelsWithTheStackAndThreadOfEachLabelledSample() throws Exception {
        Path file = write(TestProfiles.labelled());

        IItemCollection events = JfrLoaderToolkit.loadEvents(file.toFile());
        Map<String, Long> labelled = new TreeMap<>();
        IAttribute<String> labelsAttribute = Attribute.attr("labels", "labels", UnitLookup.PLAIN_TEXT);
        for (IItemIterable items : events.apply(ItemFilters.type(JfrProfileWriter.SAMPLE_LABELS))) {
            IMemberAccessor<String, IItem> labels = labelsAttribute.getAccessor(items.getType());
            IMemberAccessor<IMCStackTrace, IItem> traces = JfrAttributes.EVENT_STACKTRACE.getAccessor(items.getType());
            IMemberAccessor<IMCThread, IItem> threads = JfrAttributes.EVENT_THREAD.getAccessor(items.getType());
            assertThat(labels).isNotNull();
            for (IItem item : items) {
                IMCThread thread = threads.getMember(item);
                labelled.merge((thread == null ? "-" : thread.getThreadName()) + " " + labels.getMember(item) + " "
                        + traces.getMember(item).getFrames().get(0).getMethod().getMethodName(), 1L, Long::sum);
            }
        }

        assertThat(labelled).containsOnly(
                Map.entry("main endpoint=/checkout, tenant=acme query", 5L),
                Map.entry("main endpoint=/search, tenant=acme query", 3L),
                Map.entry("worker endpoint=/checkout checkout", 2L),
                Map.entry("- endpoint=/search search", 1L));
        assertThat(events.apply(ItemFilters.type("jdk.ExecutionSample")).getAggregate(Aggregators.count()).longValue())
                .isEqualTo(15);
    }

    @Test
    void theJdksJfrToolPrintsAndCountsTheLabels() throws Exception {
        Path file = write(TestProfiles.labelled());

        assertThat(runJfrTool("summary", file.toString()))
                .containsPattern("(?m)^\\s*jdk\\.ExecutionSample\\s+15\\s")
                .containsPattern("(?m)^\\s*mixflame\\.SampleLabels\\s+11\\s");
        assertThat(runJfrTool("print", "--events", JfrProfileWriter.SAMPLE_LABELS, file.toString()))
                .contains("labels = \"endpoint=/checkout, tenant=acme\"");
    }

    @Test
    void allocationAndLockEventsAreFollowedByTheirLabelsToo() throws IOException {
        Frame thread = Frame.thread("worker", 7);
        Frame label = Frame.label("tenant", "acme");
        Frame run = jit("a/B.run");
        Frame park = jit("jdk/internal/misc/Unsafe.park");
        Profile alloc = TestProfiles.with(new ProfileInfo("jfr", ProfileInfo.ALLOC, 0, CPU.startMillis(), 0, List.of()))
                .add(2, thread, label, run, frame("int[]", FrameType.CLASS)).build();
        Profile lock = TestProfiles.with(new ProfileInfo("jfr", ProfileInfo.LOCK, 0, CPU.startMillis(), 0, List.of()))
                .add(3, thread, label, run, frame("java.lang.Object", FrameType.CLASS))
                .add(4, thread, label, run, park, frame("java.util.concurrent.locks.ReentrantLock$NonfairSync",
                        FrameType.CLASS))
                .add(1, thread, run, frame("java.lang.Object", FrameType.CLASS))
                .build();
        Path file = dir.resolve("alloc-lock.jfr");
        ProfileFiles.writeJfr(List.of(alloc, lock), file, NO_OPTIONS);

        List<RecordedEvent> all = RecordingFile.readAllEvents(file);
        Map<String, Long> followed = new TreeMap<>();
        for (int i = 0; i < all.size(); i++) {
            String type = all.get(i).getEventType().getName();
            if (type.startsWith("jdk.") && !type.equals("jdk.ActiveSetting")) {
                boolean labelled = i + 1 < all.size()
                        && all.get(i + 1).getEventType().getName().equals(JfrProfileWriter.SAMPLE_LABELS);
                followed.merge(type + " " + (labelled ? all.get(i + 1).getString("labels") : "-") + " "
                        + methods(all.get(i)), 1L, Long::sum);
            }
        }

        assertThat(followed).containsOnly(
                Map.entry("jdk.ObjectAllocationSample tenant=acme [run]", 2L),
                Map.entry("jdk.JavaMonitorEnter tenant=acme [run]", 3L),
                Map.entry("jdk.ThreadPark tenant=acme [park, run]", 4L),
                Map.entry("jdk.JavaMonitorEnter - [run]", 1L));
    }
}

