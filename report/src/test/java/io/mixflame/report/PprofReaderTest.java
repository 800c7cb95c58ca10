package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import one.convert.Arguments;
import one.convert.JfrToPprof;
import one.jfr.JfrReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pprof read back: what {@link PprofWriter} wrote, and what async-profiler's converter writes. */
class PprofReaderTest {
    private static final ReportOptions ANNOTATED = new ReportOptions(null, FrameFilter.NONE, false,
            new FrameStyle(true, false, false));

    @TempDir
    Path dir;

    private static Profile withJavaSource() {
        Profile mixed = JfrProfileWriterTest.mixed();
        TestProfiles more = TestProfiles.with(mixed.info());
        for (Profile.Stack s : mixed.stacks()) {
            more.add(s.samples(), mixed.framesOf(s));
        }
        return more.add(6, Frame.thread("main", 4242),
                Frame.javaMethod("java/lang/Thread", "run", FrameType.INTERPRETED, "Thread.java", 833)).build();
    }

    private Path written(Profile profile, String name) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, PprofWriterTest.write(profile));
        return file;
    }

    @Test
    void whatTheWriterWroteComesBackWithEveryStackCountWeightAndWhereItsCodeLies() throws IOException {
        Profile profile = withJavaSource();

        Profile back = ProfileFiles.read(written(profile, "p.pb.gz"), w -> { throw new AssertionError(w); });

        assertThat(TestProfiles.collapsedStacks(back)).isEqualTo(TestProfiles.collapsedStacks(profile));
        assertThat(back.totalWeightNanos()).isEqualTo(profile.totalWeightNanos()).isPositive();
        assertThat(back.info().describe()).isEqualTo(profile.info().describe());
        assertThat(back.info().notes()).isEqualTo(profile.info().notes());
        Map<String, String> places = new HashMap<>();
        for (Frame f : back.frames()) {
            if (f.module() != null) {
                places.put(f.name(), f.module() + "+" + Long.toHexString(f.offset()));
            }
        }
        assertThat(places).contains(Map.entry("deflate", "libz.so.1+4560"), Map.entry("write", "libc.so.6+10"),
                Map.entry("Java_java_util_zip_Deflater_deflateBytesBytes", "libzip.so+1230"),
                Map.entry("java/lang/Thread.run", "java/lang/Thread.java+341"));
    }

    /**
     * A Function is a name, system name and file, so native functions of one name in two modules share one; their
     * Locations keep each its own mapping and address.
     */
    @Test
    void nativeFunctionsOfOneNameInTwoModulesShareAFunctionAndComeBackEachInItsModule() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(2, TestProfiles.jit("a/B.run"), Frame.nativeCode("compress", "libz.so.1", 0x7000))
                .add(1, TestProfiles.jit("a/B.run"), Frame.nativeCode("compress", "libzstd.so.1", 0x300))
                .build();

        PprofWriterTest.Decoded d = PprofWriterTest.decode(PprofWriterTest.write(profile));
        Profile back = ProfileFiles.read(written(profile, "p.pb.gz"), w -> { throw new AssertionError(w); });

        assertThat(d.functionNames.values()).extracting(n -> d.string(n[0]))
                .containsExactlyInAnyOrder("a/B.run", "compress");
        Map<String, Long> offsets = new HashMap<>();
        back.frames().stream().filter(f -> f.module() != null).forEach(f -> offsets.put(f.module(), f.offset()));
        assertThat(offsets).containsOnly(Map.entry("libz.so.1", 0x7000L), Map.entry("libzstd.so.1", 0x300L));
        assertThat(TestProfiles.collapsedStacks(back)).isEqualTo(TestProfiles.collapsedStacks(profile));
    }

    /** Every format mixflame writes, one after another (JFR's own round trip included). */
    @Test
    void collapsedToPprofToJfrToCollapsedKeepsEveryStackAndCount() throws IOException {
        Path collapsed = dir.resolve("in.collapsed");
        Files.writeString(collapsed, TestProfiles.ROUND_TRIP_COLLAPSED);
        Profile in = ProfileFiles.read(collapsed, w -> { throw new AssertionError(w); });
        Path pprof = dir.resolve("mid.pb.gz");
        ProfileFiles.write(in, pprof, ReportOptions.DEFAULT);
        Path jfr = dir.resolve("mid.jfr");
        ProfileFiles.write(ProfileFiles.read(pprof, w -> { throw new AssertionError(w); }), jfr, ReportOptions.DEFAULT);
        Path out = dir.resolve("out.collapsed");
        ProfileFiles.write(ProfileFiles.read(jfr, w -> { throw new AssertionError(w); }), out, ANNOTATED);

        Profile back = ProfileFiles.read(out, w -> { throw new AssertionError(w); });
        assertThat(TestProfiles.collapsedStacks(back)).isEqualTo(TestProfiles.collapsedStacks(in)).hasSize(3);
        assertThat(back.info().describe()).isEqualTo("engine=perf event=cpu interval=1ms");
    }

    @Test
    void asyncProfilersPprofReadsAsTheStacksOfItsRecording() throws IOException {
        Profile profile = JfrProfileWriterTest.mixed();
        Path jfr = dir.resolve("p.jfr");
        ProfileFiles.write(profile, jfr, ReportOptions.DEFAULT);
        Arguments args = new Arguments();
        args.threads = true;
        ByteArrayOutputStream pprof = new ByteArrayOutputStream();
        try (JfrReader reader = new JfrReader(jfr.toString())) {
            JfrToPprof converter = new JfrToPprof(reader, args);
            converter.convert();
            converter.dump(pprof);
        }
        // The converter's API gives the message itself; files of it are gzip'd as every pprof file.
        Path file = dir.resolve("converted.pb.gz");
        Files.write(file, gzip(pprof.toByteArray()));

        Profile back = ProfileFiles.read(file, w -> { throw new AssertionError(w); });

        // The converter writes names without kinds: compare names, the thread roots included.
        Map<String, Long> expected = new TreeMap<>();
        TestProfiles.collapsedStacks(profile).forEach((stack, count) ->
                expected.merge(stack.replaceAll("_\\[[0-9a-z]]($|;)", "$1"), count, Long::sum));
        Map<String, Long> got = new TreeMap<>();
        TestProfiles.collapsedStacks(back).forEach((stack, count) ->
                got.merge(stack.replaceAll("_\\[[0-9a-z]]($|;)", "$1"), count, Long::sum));
        assertThat(got).isEqualTo(expected).containsKey("[main tid=4242];java/lang/Thread.run;a/B.hot");
    }

    @Test
    void damagedOrForeignGzipFilesFailWithOneLine() throws IOException {
        byte[] good = PprofWriterTest.write(withJavaSource());
        Path truncated = dir.resolve("truncated.pb.gz");
        Files.write(truncated, Arrays.copyOf(good, good.length / 2));
        Path garbage = dir.resolve("garbage.pb.gz");
        byte[] noise = new byte[4096];
        new Random(3).nextBytes(noise);
        Files.write(garbage, gzip(noise));
        Path noTable = dir.resolve("notable.pb.gz");
        Files.write(noTable, gzip(new byte[] {0x32, 0x01, 'x'}));

        for (Path p : List.of(truncated, garbage, noTable)) {
            assertThatThrownBy(() -> ProfileFiles.read(p, w -> { }))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith(p + ": is gzip-compressed but not a readable pprof profile")
                    .message().doesNotContain("\n");
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        }
        return out.toByteArray();
    }

    @Test
    void aProfileOfCountsOnlyCountsEachSampleAsWritten() throws IOException {
        Profile counts = TestProfiles.with(new ProfileInfo("collapsed", "unknown", 0, 0, 0, List.of()))
                .add(7, TestProfiles.jit("a/B.x"), Frame.nativeCode("memcpy", "libc.so.6", 0x40))
                .build();

        Profile back = ProfileFiles.read(written(counts, "c.pb.gz"), w -> { throw new AssertionError(w); });

        assertThat(TestProfiles.collapsedStacks(back)).isEqualTo(TestProfiles.collapsedStacks(counts));
        assertThat(back.totalWeightNanos()).isZero();
    }

    @Test
    void labelsComeBackAsLabelFramesAfterTheThread() throws IOException {
        Profile profile = TestProfiles.labelled();

        Profile back = ProfileFiles.read(written(profile, "l.pb.gz"), w -> { throw new AssertionError(w); });

        assertThat(TestProfiles.typedStacks(back)).isEqualTo(TestProfiles.typedStacks(profile));
    }

    /**
     * Another producer's labels: in any order, a key that is no label key, a numeric label, a second thread label, a
     * value with a line break and one longer than a label keeps.
     */
    @Test
    void foreignStringLabelsBecomeLabelFramesSortedByKeyAndTheRestIsLeftOut() throws IOException {
        List<String> strings = List.of("", "samples", "count", "a/B.c", "thread", "[t tid=1]", "tenant", "acme",
                "endpoint", "/x\ny", "bad key", "v", "bytes", "x", "z", "w".repeat(300));
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(raw);
        out.writeByteArray(1, message(o -> {
            o.writeInt64(1, 1);
            o.writeInt64(2, 2);
        }));
        out.writeByteArray(2, message(o -> {
            o.writeInt64(1, 1);
            o.writeInt64(2, 4);
            for (long[] label : new long[][] {{4, 5, 0}, {6, 7, 0}, {10, 11, 0}, {12, 0, 100}, {8, 9, 0}, {4, 13, 0},
                    {14, 15, 0}}) {
                o.writeByteArray(3, message(l -> {
                    l.writeInt64(1, label[0]);
                    if (label[1] != 0) {
                        l.writeInt64(2, label[1]);
                    }
                    if (label[2] != 0) {
                        l.writeInt64(3, label[2]);
                    }
                }));
            }
        }));
        out.writeByteArray(4, message(o -> {
            o.writeUInt64(1, 1);
            o.writeByteArray(4, message(l -> l.writeUInt64(1, 1)));
        }));
        out.writeByteArray(5, message(o -> {
            o.writeUInt64(1, 1);
            o.writeInt64(2, 3);
        }));
        for (String string : strings) {
            out.writeString(6, string);
        }
        out.flush();
        Path file = dir.resolve("foreign.pb.gz");
        Files.write(file, gzip(raw.toByteArray()));
        List<String> warnings = new java.util.ArrayList<>();

        Profile back = ProfileFiles.read(file, warnings::add);

        assertThat(TestProfiles.typedStacks(back)).containsOnly(Map.entry("THREAD:[t tid=1];LABEL:[endpoint=/x y];"
                + "LABEL:[tenant=acme];LABEL:[thread=x];LABEL:[z=" + "w".repeat(127) + "\u2026];JIT_COMPILED:a/B.c", 4L));
        assertThat(warnings).singleElement().asString().startsWith("1 sample labels left out").contains("'bad key'");
    }

    private interface Fields {
        void write(com.google.protobuf.CodedOutputStream out) throws IOException;
    }

    private static byte[] message(Fields fields) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
        fields.write(out);
        out.flush();
        return bytes.toByteArray();
    }
}

