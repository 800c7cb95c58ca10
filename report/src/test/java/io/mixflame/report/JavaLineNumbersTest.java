package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmc.common.IMCFrame;
import org.openjdk.jmc.common.IMCStackTrace;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;

/**
 * Java frames that carry the line each sample was at ({@code lines}): every format keeps them, readers that share no
 * code with the writers find them, and outputs that do not show lines merge what differs only by line.
 */
class JavaLineNumbersTest {

    private static final ProfileInfo CPU = TestProfiles.JFR_CPU;
    private static final FrameStyle LINES = new FrameStyle(false, false, false, true);

    @TempDir
    Path dir;

    /** One method sampled at two lines, its caller at one; a native leaf, which has no line. */
    static Profile sampledAtLines() {
        Frame caller = Frame.javaMethod("app/Main", "main", FrameType.INTERPRETED, "Main.java", 10).atLine(14);
        Frame hot = Frame.javaMethod("app/Work", "loop", FrameType.JIT_COMPILED, "Work.java", 20);
        return TestProfiles.with(CPU)
                .add(5, Frame.thread("main", 1), caller, hot.atLine(23))
                .add(3, Frame.thread("main", 1), caller, hot.atLine(27))
                .add(2, Frame.thread("main", 1), caller, hot.atLine(27), Frame.nativeCode("memcpy", "libc.so.6", 0x40))
                .build();
    }

    @Test
    void framesDifferOnlyByLineAreDifferentFramesOfOneMethod() {
        Frame hot = Frame.javaMethod("app/Work", "loop", FrameType.JIT_COMPILED, "Work.java", 20);

        assertThat(hot.atLine(23)).isNotEqualTo(hot.atLine(27)).isNotEqualTo(hot);
        assertThat(hot.atLine(23).atLine(0)).isEqualTo(hot);
        assertThat(hot.atLine(0)).isSameAs(hot);
        assertThat(sampledAtLines().frames()).hasSize(5);
    }

    @Test
    void collapsedShowsLinesOnlyWhenAskedAndReadsThemBack() throws IOException {
        Profile profile = sampledAtLines();

        String plain = collapsed(profile, FrameStyle.DEFAULT);
        String withLines = collapsed(profile, LINES);

        assertThat(plain.lines().skip(1)).containsExactly(
                "[main tid=1];app/Main.main;app/Work.loop 8", "[main tid=1];app/Main.main;app/Work.loop;memcpy 2");
        assertThat(withLines.lines().skip(1)).containsExactly(
                "[main tid=1];app/Main.main:14;app/Work.loop:23 5",
                "[main tid=1];app/Main.main:14;app/Work.loop:27 3",
                "[main tid=1];app/Main.main:14;app/Work.loop:27;memcpy 2");
        Profile read = new CollapsedReader().read(new ByteArrayInputStream(withLines.getBytes(StandardCharsets.UTF_8)), w -> { });
        assertThat(linesOf(read)).containsOnly(Map.entry("app/Main.main", List.of(14)),
                Map.entry("app/Work.loop", List.of(23, 27)));
        // A native name ending in digits after a colon is not a line.
        assertThat(CollapsedFrames.parse("operator:12").line()).isZero();
        assertThat(CollapsedFrames.parse("a/B.c:12_[j]")).isEqualTo(new Frame("a/B.c", FrameType.JIT_COMPILED, null, 0, 12));
    }

    @Test
    void jfrCarriesTheLinesToTheJdksReaderJmcAndAsyncProfilersConverter() throws Exception {
        Profile profile = sampledAtLines();
        Path file = dir.resolve("lines.jfr");
        ProfileFiles.write(profile, file, ReportOptions.DEFAULT);

        Map<String, Long> jdk = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
                List<String> names = new ArrayList<>();
                for (RecordedFrame f : e.getStackTrace().getFrames()) {
                    names.add(0, f.getMethod().getName() + ":" + f.getLineNumber());
                }
                jdk.merge(String.join(";", names), 1L, Long::sum);
            }
        }
        assertThat(jdk).containsOnly(Map.entry("main:14;loop:23", 5L), Map.entry("main:14;loop:27", 3L),
                Map.entry("main:14;loop:27;memcpy:0", 2L));

        Map<String, Long> jmc = new TreeMap<>();
        for (IItemIterable items : JfrLoaderToolkit.loadEvents(file.toFile()).apply(ItemFilters.type("jdk.ExecutionSample"))) {
            IMemberAccessor<IMCStackTrace, IItem> traces = JfrAttributes.EVENT_STACKTRACE.getAccessor(items.getType());
            for (IItem item : items) {
                List<String> names = new ArrayList<>();
                for (IMCFrame f : traces.getMember(item).getFrames()) {
                    names.add(0, f.getMethod().getMethodName() + ":" + f.getFrameLineNumber());
                }
                jmc.merge(String.join(";", names), 1L, Long::sum);
            }
        }
        assertThat(jmc).isEqualTo(jdk);

        Arguments args = new Arguments();
        args.output = "collapsed";
        args.lines = true;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JfrReader reader = new JfrReader(file.toString())) {
            JfrToFlame converter = new JfrToFlame(reader, args);
            converter.convert();
            converter.dump(out);
        }
        assertThat(out.toString(StandardCharsets.UTF_8).lines())
                .containsExactly("app/Main.main:14_[0];app/Work.loop:23_[j] 5", "app/Main.main:14_[0];app/Work.loop:27_[j] 3",
                        "app/Main.main:14_[0];app/Work.loop:27_[j];memcpy 2");
        // mixflame spells lines and suffixes in the converter's order.
        assertThat(collapsed(profile, new FrameStyle(true, false, false, true)).lines().skip(1))
                .containsExactly("[main tid=1];app/Main.main:14_[0];app/Work.loop:23_[j] 5",
                        "[main tid=1];app/Main.main:14_[0];app/Work.loop:27_[j] 3",
                        "[main tid=1];app/Main.main:14_[0];app/Work.loop:27_[j];memcpy 2");

        Profile read = ProfileFiles.read(file, w -> { });
        assertThat(linesOf(read)).isEqualTo(linesOf(profile));
        assertThat(collapsed(read, LINES).lines().skip(1)).isEqualTo(collapsed(profile, LINES).lines().skip(1).toList());
    }

    @Test
    void pprofHasALocationPerLineSharingTheMethodsFunctionAndReadsBack() throws IOException {
        Profile profile = sampledAtLines();
        byte[] pprof = PprofWriterTest.write(profile);

        PprofWriterTest.Decoded d = PprofWriterTest.decode(pprof);
        Map<String, List<Long>> linesByFunction = new TreeMap<>();
        d.locationLine.forEach((location, line) -> linesByFunction
                .computeIfAbsent(d.string(d.functionNames.get(d.locationFunction.get(location))[0]), k -> new ArrayList<>())
                .add(line));
        linesByFunction.values().forEach(l -> l.sort(null));
        assertThat(linesByFunction).containsOnly(Map.entry("app/Main.main", List.of(14L)),
                Map.entry("app/Work.loop", List.of(23L, 27L)), Map.entry("memcpy", List.of(0L)));
        assertThat(d.functionNames).as("one function per method").hasSize(3);
        Map<String, Long> startLines = new HashMap<>();
        d.functionNames.values().forEach(f -> startLines.put(d.string(f[0]), f[3]));
        assertThat(startLines).containsEntry("app/Main.main", 10L).containsEntry("app/Work.loop", 20L);

        Path file = dir.resolve("lines.pb.gz");
        Files.write(file, pprof);
        Profile read = ProfileFiles.read(file, w -> { });
        assertThat(TestProfiles.frameStacks(read)).isEqualTo(TestProfiles.frameStacks(profile));
    }

    @Test
    void theSampleStreamKeepsLinesWithAndWithoutASourceFile() throws IOException {
        Frame known = Frame.javaMethod("app/Work", "loop", FrameType.JIT_COMPILED, "Work.java", 20).atLine(23);
        Frame noSource = new Frame("app/Gen.run", FrameType.INTERPRETED).atLine(7);
        ProfileAccumulator acc = new ProfileAccumulator();
        acc.add(new Frame[] {noSource, known}, 2, 0);
        StringWriter out = new StringWriter();
        new SampleStreamWriter(out, 100).write(acc.snapshot(CPU));

        ProfileAccumulator back = new ProfileAccumulator();
        new SampleStreamReader(100).read(new ByteArrayInputStream(out.toString().getBytes(StandardCharsets.UTF_8)),
                back, n -> { });

        assertThat(TestProfiles.frameStacks(back.snapshot(CPU))).containsOnly(Map.entry(List.of(noSource, known), 2L));
        assertThat(back.snapshot(CPU).frames()).extracting(Frame::module).containsExactly(null, "app/Work.java");
    }

    private static String collapsed(Profile profile, FrameStyle style) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CollapsedWriter(style).write(profile, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The sampled lines of each Java method of the profile, sorted. */
    private static Map<String, List<Integer>> linesOf(Profile profile) {
        Map<String, List<Integer>> lines = new TreeMap<>();
        for (Frame f : profile.frames()) {
            if (f.type().isJava()) {
                lines.computeIfAbsent(f.name(), k -> new ArrayList<>()).add(f.line());
            }
        }
        lines.values().forEach(l -> l.sort(null));
        return lines;
    }
}
