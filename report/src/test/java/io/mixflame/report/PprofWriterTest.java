package io.mixflame.report;

import static io.mixflame.report.TestProfiles.frame;
import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** Decodes the output with protobuf-java's wire reader, independently of the writer's encoder. */
class PprofWriterTest {

    /** The parts of profile.proto the writer fills, decoded field by field. */
    static final class Decoded {
        final List<long[]> sampleTypes = new ArrayList<>();
        final List<long[]> sampleLocations = new ArrayList<>();
        final List<long[]> sampleValues = new ArrayList<>();
        /** Each sample's string labels, key to value. */
        final List<Map<String, String>> sampleLabels = new ArrayList<>();
        /** Each mapping's fields 1..10 of profile.proto, by field number (index 0 unused). */
        final List<long[]> mappings = new ArrayList<>();
        final Map<Long, long[]> locationMappingAndAddress = new HashMap<>();
        final List<List<long[]>> rawLabels = new ArrayList<>();
        final Map<Long, Long> locationFunction = new HashMap<>();
        /** Each location's Line's line number (0 when the Line has none). */
        final Map<Long, Long> locationLine = new HashMap<>();
        final Map<Long, long[]> functionNames = new HashMap<>(); // id -> {name, system_name, filename, start_line}
        final List<String> strings = new ArrayList<>();
        final List<Long> comments = new ArrayList<>();
        long[] periodType;
        long period;
        long timeNanos;
        long durationNanos;
        long defaultSampleType;

        String string(long index) {
            return strings.get((int) index);
        }

        /** The frame names of a sample's locations, in the order stored (leaf first). */
        List<String> sampleFrames(int sample) {
            List<String> names = new ArrayList<>();
            for (long location : sampleLocations.get(sample)) {
                names.add(string(functionNames.get(locationFunction.get(location))[0]));
            }
            return names;
        }
    }

    static byte[] write(Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PprofWriter().write(profile, out);
        return out.toByteArray();
    }

    /** Decodes our writer's output, which must pack its repeated numbers. */
    static Decoded decode(byte[] gzipped) throws IOException {
        return decode(new GZIPInputStream(new ByteArrayInputStream(gzipped)).readAllBytes(), true);
    }

    /** Decodes another writer's uncompressed profile, whose repeated numbers may be unpacked (as proto3 allows). */
    static Decoded decodeForeign(byte[] raw) throws IOException {
        return decode(raw, false);
    }

    private static Decoded decode(byte[] raw, boolean packedOnly) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(raw);
        Decoded d = new Decoded();
        for (int tag; (tag = in.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> d.sampleTypes.add(valueType(in.readBytes().newCodedInput()));
                case 2 -> sample(in.readBytes().newCodedInput(), d, packedOnly);
                case 3 -> d.mappings.add(mapping(in.readBytes().newCodedInput()));
                case 4 -> location(in.readBytes().newCodedInput(), d);
                case 5 -> function(in.readBytes().newCodedInput(), d);
                case 6 -> d.strings.add(in.readStringRequireUtf8());
                case 9 -> d.timeNanos = in.readInt64();
                case 10 -> d.durationNanos = in.readInt64();
                case 11 -> d.periodType = valueType(in.readBytes().newCodedInput());
                case 12 -> d.period = in.readInt64();
                case 13 -> d.comments.add(in.readInt64());
                case 14 -> d.defaultSampleType = in.readInt64();
                default -> throw new AssertionError("unexpected field " + WireFormat.getTagFieldNumber(tag));
            }
        }
        for (List<long[]> labels : d.rawLabels) {
            Map<String, String> named = new HashMap<>();
            labels.forEach(l -> assertThat(named.put(d.string(l[0]), d.string(l[1]))).as("label twice").isNull());
            d.sampleLabels.add(named);
        }
        return d;
    }

    private static long[] valueType(CodedInputStream in) throws IOException {
        long[] typeAndUnit = new long[2];
        for (int tag; (tag = in.readTag()) != 0; ) {
            typeAndUnit[WireFormat.getTagFieldNumber(tag) - 1] = in.readInt64();
        }
        return typeAndUnit;
    }

    private static void sample(CodedInputStream in, Decoded d, boolean packedOnly) throws IOException {
        long[] locations = {};
        long[] values = {};
        List<long[]> labels = new ArrayList<>();
        for (int tag; (tag = in.readTag()) != 0; ) {
            if (WireFormat.getTagFieldNumber(tag) == 3) {
                labels.add(label(in.readBytes().newCodedInput()));
                continue;
            }
            long[] read;
            if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_VARINT && !packedOnly) {
                read = new long[] {in.readInt64()};
            } else {
                assertThat(WireFormat.getTagWireType(tag)).as("packed").isEqualTo(WireFormat.WIRETYPE_LENGTH_DELIMITED);
                read = packed(in.readBytes().newCodedInput());
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> locations = concat(locations, read);
                case 2 -> values = concat(values, read);
                default -> throw new AssertionError("unexpected sample field " + tag);
            }
        }
        d.sampleLocations.add(locations);
        d.sampleValues.add(values);
        // Resolved once the string table is read (it may come after the samples).
        d.rawLabels.add(labels);
    }

    /** A label's {key, str} string indexes; numeric labels are not expected. */
    private static long[] label(CodedInputStream in) throws IOException {
        long[] keyAndStr = new long[2];
        for (int tag; (tag = in.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> keyAndStr[0] = in.readInt64();
                case 2 -> keyAndStr[1] = in.readInt64();
                default -> throw new AssertionError("unexpected label field " + WireFormat.getTagFieldNumber(tag));
            }
        }
        return keyAndStr;
    }

    private static long[] concat(long[] a, long[] b) {
        long[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static long[] packed(CodedInputStream in) throws IOException {
        List<Long> values = new ArrayList<>();
        while (!in.isAtEnd()) {
            values.add(in.readInt64());
        }
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] mapping(CodedInputStream in) throws IOException {
        long[] fields = new long[11];
        for (int tag; (tag = in.readTag()) != 0; ) {
            int field = WireFormat.getTagFieldNumber(tag);
            assertThat(field).as("mapping field").isBetween(1, 10);
            fields[field] = in.readUInt64();
        }
        return fields;
    }

    private static void location(CodedInputStream in, Decoded d) throws IOException {
        long id = 0;
        long function = 0;
        long lineNumber = 0;
        long[] mappingAndAddress = new long[2];
        for (int tag; (tag = in.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> id = in.readUInt64();
                case 2 -> mappingAndAddress[0] = in.readUInt64();
                case 3 -> mappingAndAddress[1] = in.readUInt64();
                case 4 -> {
                    CodedInputStream line = in.readBytes().newCodedInput();
                    for (int t; (t = line.readTag()) != 0; ) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> function = line.readUInt64();
                            case 2 -> lineNumber = line.readInt64();
                            default -> line.skipField(t);
                        }
                    }
                }
                default -> in.skipField(tag);
            }
        }
        d.locationFunction.put(id, function);
        d.locationLine.put(id, lineNumber);
        d.locationMappingAndAddress.put(id, mappingAndAddress);
    }

    private static void function(CodedInputStream in, Decoded d) throws IOException {
        long id = 0;
        long[] names = new long[4];
        for (int tag; (tag = in.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> id = in.readUInt64();
                case 2 -> names[0] = in.readInt64();
                case 3 -> names[1] = in.readInt64();
                case 4 -> names[2] = in.readInt64();
                case 5 -> names[3] = in.readInt64();
                default -> in.skipField(tag);
            }
        }
        d.functionNames.put(id, names);
    }

    private static Profile sample() {
        Frame thread = Frame.thread("main", 3);
        return TestProfiles.with(TestProfiles.JFR_CPU.withNote("overhead 0.5%"))
                .add(4, thread, frame("java/lang/Thread.run", FrameType.INTERPRETED), jit("a/B.hot"))
                .add(2, thread, frame("java/lang/Thread.run", FrameType.INTERPRETED),
                        frame("a/B.inl", FrameType.INLINED), frame("write", FrameType.NATIVE))
                .build();
    }

    @Test
    void isGzipCompressed() throws IOException {
        byte[] bytes = write(sample());

        assertThat(bytes[0] & 0xff).isEqualTo(0x1f);
        assertThat(bytes[1] & 0xff).isEqualTo(0x8b);
    }

    @Test
    void declaresSampleTypesPeriodTimesAndComments() throws IOException {
        Decoded d = decode(write(sample()));

        assertThat(d.string(0)).isEmpty();
        assertThat(d.strings).doesNotHaveDuplicates();
        assertThat(d.sampleTypes).hasSize(2);
        assertThat(d.string(d.sampleTypes.get(0)[0])).isEqualTo("samples");
        assertThat(d.string(d.sampleTypes.get(0)[1])).isEqualTo("count");
        assertThat(d.string(d.sampleTypes.get(1)[0])).isEqualTo("cpu");
        assertThat(d.string(d.sampleTypes.get(1)[1])).isEqualTo("nanoseconds");
        assertThat(d.string(d.periodType[0])).isEqualTo("cpu");
        assertThat(d.string(d.periodType[1])).isEqualTo("nanoseconds");
        assertThat(d.period).isEqualTo(10_000_000L);
        assertThat(d.string(d.defaultSampleType)).isEqualTo("cpu");
        assertThat(d.timeNanos).isEqualTo(1_700_000_000_000L * 1_000_000L);
        assertThat(d.durationNanos).isEqualTo(5_000_000_000L);
        assertThat(d.comments.stream().map(d::string))
                .containsExactly("mixflame engine=jfr event=cpu interval=10ms", "overhead 0.5%");
    }

    @Test
    void samplesNameTheirFramesLeafFirstWithSamplesWeightAndThreadLabel() throws IOException {
        Decoded d = decode(write(sample()));

        Map<List<String>, List<Long>> samples = new HashMap<>();
        for (int i = 0; i < d.sampleLocations.size(); i++) {
            assertThat(d.sampleLabels.get(i)).containsOnly(Map.entry("thread", "[main tid=3]"));
            samples.put(d.sampleFrames(i), List.of(d.sampleValues.get(i)[0], d.sampleValues.get(i)[1]));
        }
        assertThat(samples).containsOnly(
                Map.entry(List.of("a/B.hot", "java/lang/Thread.run"), List.of(4L, 40_000_000L)),
                Map.entry(List.of("write", "a/B.inl", "java/lang/Thread.run"), List.of(2L, 20_000_000L)));
    }

    @Test
    void oneFunctionAndLocationPerDistinctFrameWithKindInSystemNameAndNoSourceFile() throws IOException {
        Decoded d = decode(write(sample()));

        assertThat(d.locationFunction).hasSize(4);
        assertThat(d.functionNames).hasSize(4);
        Map<String, String> systemNames = new HashMap<>();
        d.functionNames.values().forEach(n -> systemNames.put(d.string(n[0]), d.string(n[1])));
        assertThat(systemNames).containsOnly(
                Map.entry("java/lang/Thread.run", "java/lang/Thread.run_[0]"),
                Map.entry("a/B.hot", "a/B.hot_[j]"),
                Map.entry("a/B.inl", "a/B.inl_[i]"),
                Map.entry("write", "write"));
        // File names and line numbers are not known: none is made up.
        assertThat(d.functionNames.values()).allSatisfy(n -> assertThat(new long[] {n[2], n[3]}).containsOnly(0));
    }

    @Test
    void javaFunctionsCarryTheirSourceFileAndFirstLineWhenTheEngineKnewThem() throws IOException {
        Profile p = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(2, Frame.javaMethod("java/lang/Thread", "run", FrameType.INTERPRETED, "Thread.java", 833),
                        Frame.javaMethod("Top", "main", FrameType.JIT_COMPILED, "Top.java", 0),
                        Frame.nativeCode("write", "libc.so.6", 0x114870))
                .build();
        Decoded d = decode(write(p));

        Map<String, String> files = new HashMap<>();
        Map<String, Long> firstLines = new HashMap<>();
        d.functionNames.values().forEach(n -> {
            files.put(d.string(n[0]), d.string(n[2]));
            firstLines.put(d.string(n[0]), n[3]);
        });
        assertThat(files).containsOnly(Map.entry("java/lang/Thread.run", "java/lang/Thread.java"),
                Map.entry("Top.main", "Top.java"), Map.entry("write", ""));
        assertThat(firstLines).containsOnly(Map.entry("java/lang/Thread.run", 833L), Map.entry("Top.main", 0L),
                Map.entry("write", 0L));
        assertThat(d.locationMappingAndAddress.values()).as("a source file is no mapping")
                .filteredOn(ma -> ma[0] != 0).hasSize(1);
    }

    /** Native frames of two modules, one frame of a module at offset 0, a Java frame between them. */
    static Profile nativeFrames() {
        return TestProfiles.with(TestProfiles.JFR_CPU)
                .add(3, Frame.thread("w", 8), jit("a/B.run"), Frame.nativeCode("inflate", "libz.so.1", 0x7000),
                        Frame.nativeCode("inflate_fast", "libz.so.1", 0x9a40))
                .add(2, jit("a/B.run"), Frame.nativeCode("write", "libc.so.6", 0x114870),
                        Frame.nativeCode("entry", "libc.so.6", 0))
                .add(1, frame("[unknown]", FrameType.MARKER), frame("do_syscall_64", FrameType.KERNEL))
                .build();
    }

    @Test
    void nativeFramesHaveTheirModulesMappingAndAnAddressAtTheirOffsetInIt() throws IOException {
        Decoded d = decode(write(nativeFrames()));

        assertThat(d.mappings).hasSize(2);
        Map<String, long[]> byFile = new HashMap<>();
        for (long[] m : d.mappings) {
            byFile.put(d.string(m[5]), m);
            assertThat(m[6]).as("build id unknown: empty").isZero();
            assertThat(m[7]).as("has_functions").isEqualTo(1);
            assertThat(m[2]).as("start").isPositive();
        }
        long[] libz = byFile.get("libz.so.1");
        long[] libc = byFile.get("libc.so.6");
        assertThat(libz[3]).isGreaterThan(libz[2] + 0x9a40);
        assertThat(libc[3]).isGreaterThan(libc[2] + 0x114870);
        assertThat(libz[3] <= libc[2] || libc[3] <= libz[2]).as("ranges apart").isTrue();
        Map<String, long[]> placed = new HashMap<>();
        d.locationFunction.forEach((location, function) ->
                placed.put(d.string(d.functionNames.get(function)[0]), d.locationMappingAndAddress.get(location)));
        assertThat(placed.get("inflate")).containsExactly(libz[1], libz[2] + 0x7000);
        assertThat(placed.get("inflate_fast")).containsExactly(libz[1], libz[2] + 0x9a40);
        assertThat(placed.get("write")).containsExactly(libc[1], libc[2] + 0x114870);
        assertThat(placed.get("entry")).containsExactly(libc[1], libc[2]);
        for (String unmapped : List.of("a/B.run", "[unknown]", "do_syscall_64")) {
            assertThat(placed.get(unmapped)).as(unmapped).containsExactly(0, 0);
        }
    }

    @Test
    void collapsedWithoutHeaderHasTheSampleCountsAlone() throws IOException {
        Profile read = new CollapsedReader().read(
                new ByteArrayInputStream("a;b 3\na;c 2\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)), w -> { });

        Decoded d = decode(write(read));

        assertCountsOnly(d);
        assertThat(d.sampleValues.stream().mapToLong(v -> v[0]).sum()).isEqualTo(5);
    }

    @Test
    void wallEventWithoutIntervalOrTimesHasTheSampleCountsAlone() throws IOException {
        Profile profile = TestProfiles.with(new ProfileInfo("perf", "wall", 0, 0, 0, List.of()))
                .addJava(3, "a;b").build();

        Decoded d = decode(write(profile));

        assertCountsOnly(d);
        assertThat(d.timeNanos).isZero();
        assertThat(d.sampleFrames(0)).containsExactly("b", "a");
        assertThat(d.sampleValues.get(0)).containsExactly(3);
    }

    @Test
    void wallEventWithIntervalIsWallNanoseconds() throws IOException {
        Profile profile = TestProfiles.with(new ProfileInfo("perf", "wall", 20_000_000L, 0, 0, List.of()))
                .addJava(3, "a;b").build();

        Decoded d = decode(write(profile));

        assertWeighed(d, "wall", 20_000_000L);
        assertThat(d.sampleValues.get(0)).containsExactly(3, 60_000_000L);
    }

    @Test
    void eachInputFormatGivesTheTypesItsWeightsSupport() throws IOException {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("pprof-inputs");
        try {
            Profile cpu = sample();
            ReportOptions none = ReportOptions.DEFAULT;
            for (String ext : List.of("collapsed", "jfr", "html")) {
                java.nio.file.Path file = dir.resolve("in." + ext);
                ProfileFiles.write(cpu, file, none);
                Profile read = ProfileFiles.read(file, w -> { });

                Decoded d = decode(write(read));

                // Collapsed with our header and JFR keep the interval; an HTML page keeps counts only.
                if (ext.equals("html")) {
                    assertCountsOnly(d);
                } else {
                    assertWeighed(d, "cpu", 10_000_000L);
                }
                assertThat(d.sampleValues.stream().mapToLong(v -> v[0]).sum()).as(ext).isEqualTo(6);
            }
        } finally {
            try (var files = java.nio.file.Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static void assertCountsOnly(Decoded d) {
        assertThat(d.sampleTypes).hasSize(1);
        assertThat(d.string(d.sampleTypes.get(0)[0])).isEqualTo("samples");
        assertThat(d.string(d.sampleTypes.get(0)[1])).isEqualTo("count");
        assertThat(d.string(d.periodType[0])).isEqualTo("samples");
        assertThat(d.string(d.periodType[1])).isEqualTo("count");
        assertThat(d.period).isEqualTo(1);
        assertThat(d.string(d.defaultSampleType)).isEqualTo("samples");
        assertThat(d.sampleValues).allSatisfy(v -> assertThat(v).hasSize(1));
    }

    private static void assertWeighed(Decoded d, String event, long period) {
        assertThat(d.sampleTypes.stream().map(t -> d.string(t[0]) + "/" + d.string(t[1])))
                .containsExactly("samples/count", event + "/nanoseconds");
        assertThat(d.string(d.periodType[0]) + "/" + d.string(d.periodType[1])).isEqualTo(event + "/nanoseconds");
        assertThat(d.period).isEqualTo(period);
        assertThat(d.string(d.defaultSampleType)).isEqualTo(event);
        assertThat(d.sampleValues).allSatisfy(v -> assertThat(v).hasSize(2));
    }

    @Test
    void labelsAreSampleLabelsAfterTheThreadLabelAndNoLocations() throws IOException {
        Decoded d = decode(write(TestProfiles.labelled()));

        Map<List<String>, Long> samples = new HashMap<>();
        for (int i = 0; i < d.sampleLocations.size(); i++) {
            List<String> labelsAndFrames = new ArrayList<>();
            for (long[] label : d.rawLabels.get(i)) {
                labelsAndFrames.add(d.string(label[0]) + "=" + d.string(label[1]));
            }
            labelsAndFrames.addAll(d.sampleFrames(i));
            samples.put(labelsAndFrames, d.sampleValues.get(i)[0]);
        }
        assertThat(samples).containsOnly(
                Map.entry(List.of("thread=[main tid=1]", "endpoint=/checkout", "tenant=acme", "a/Db.query",
                        "a/Shop.checkout"), 5L),
                Map.entry(List.of("thread=[main tid=1]", "endpoint=/search", "tenant=acme", "a/Db.query",
                        "a/Shop.search"), 3L),
                Map.entry(List.of("thread=[worker tid=2]", "endpoint=/checkout", "a/Shop.checkout"), 2L),
                Map.entry(List.of("endpoint=/search", "a/Shop.search"), 1L),
                Map.entry(List.of("thread=[main tid=1]", "a/Idle.run"), 4L));
        assertThat(d.functionNames.values()).extracting(n -> d.string(n[0])).allMatch(n -> !n.startsWith("["));
    }
}

