package io.mixflame.report;

import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Label values are text from the application: whatever they hold, every format keeps its records apart, its page
 * free of the application's script, and gives the labels back.
 */
class LabelEscapingTest {

    private static final String LONG = "z".repeat(10_000);

    /** One label per hostile value, in key order, under a thread; and a stack without labels beside it. */
    private static Profile hostile() {
        return TestProfiles.with(TestProfiles.JFR_CPU)
                .add(3, Frame.thread("main", 1),
                        Frame.label("br", "x]y] tid=5]"),
                        Frame.label("html", HostileNames.BREAKOUT + "<!--"),
                        Frame.label("jfr", "a, b=c\\d,"),
                        Frame.label("long", LONG),
                        Frame.label("nl", "one\ntwo\r\nthree"),
                        Frame.label("quote", "say \"hi\" 'there'"),
                        Frame.label("semi", "a;b;c 99"),
                        jit("a/B.work"))
                .add(1, Frame.thread("main", 1), jit("a/B.idle"))
                .build();
    }

    /** The labels as text formats sanitize them: ';' would end the frame, so it is written ':'. */
    private static Map<String, Long> sanitized(Profile profile) {
        Map<String, Long> stacks = new java.util.TreeMap<>();
        TestProfiles.typedStacks(profile).forEach((stack, n) -> stacks.put(stack.replace("a;b;c", "a:b:c"), n));
        return stacks;
    }

    @TempDir
    Path dir;

    private Path write(Profile profile, String name) throws IOException {
        Path file = dir.resolve(name);
        ProfileFiles.write(profile, file, ReportOptions.DEFAULT);
        return file;
    }

    private static Profile read(Path file) throws IOException {
        return ProfileFiles.read(file, w -> { throw new AssertionError(w); });
    }

    @Test
    void valuesAreCutAndFreeOfLineBreaksBeforeAnyFormatSeesThem() {
        List<Frame> labels = new ArrayList<>();
        for (Frame f : hostile().frames()) {
            if (f.type() == FrameType.LABEL) {
                labels.add(f);
            }
        }

        assertThat(labels).hasSize(7).allSatisfy(f -> assertThat(f.name()).doesNotContain("\n", "\r"));
        assertThat(labels).extracting(Frame::labelValue).contains("one two  three",
                "z".repeat(Frame.MAX_LABEL_VALUE - 1) + "\u2026");
    }

    @Test
    void collapsedKeepsOneLinePerStackAndReadsTheLabelsBack() throws IOException {
        Path file = write(hostile(), "h.collapsed");

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Profile back = read(file);

        assertThat(lines).hasSize(1 + 2);
        assertThat(TestProfiles.typedStacks(back)).isEqualTo(sanitized(hostile()));
    }

    @Test
    void htmlKeepsTheApplicationsScriptOutAndReadsTheLabelsBack() throws IOException {
        Path file = write(hostile(), "h.html");

        String html = Files.readString(file);
        Profile back = read(file);

        HostileNames.assertScriptSafe(html);
        assertThat(TestProfiles.typedStacks(back)).isEqualTo(sanitized(hostile()));
    }

    @Test
    void pprofCarriesEachValueAsItIsAndReadsTheLabelsBack() throws IOException {
        Path file = write(hostile(), "h.pb.gz");

        PprofWriterTest.Decoded d = PprofWriterTest.decode(Files.readAllBytes(file));
        Profile back = read(file);

        List<String> labelled = new ArrayList<>();
        for (List<long[]> labels : d.rawLabels) {
            if (labels.size() > 1) {
                for (long[] label : labels) {
                    labelled.add(d.string(label[0]) + "=" + d.string(label[1]));
                }
            }
        }
        assertThat(labelled).containsExactly("thread=[main tid=1]", "br=x]y] tid=5]",
                "html=" + HostileNames.BREAKOUT + "<!--", "jfr=a, b=c\\d,",
                "long=" + "z".repeat(Frame.MAX_LABEL_VALUE - 1) + "\u2026", "nl=one two  three",
                "quote=say \"hi\" 'there'", "semi=a;b;c 99");
        assertThat(TestProfiles.typedStacks(back)).isEqualTo(TestProfiles.typedStacks(hostile()));
    }

    @Test
    void jfrCarriesEveryValueReadableByTheJdkAndTheConverterStillFindsTheStacks() throws IOException {
        Path file = write(hostile(), "h.jfr");

        String labels = null;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals(JfrProfileWriter.SAMPLE_LABELS)) {
                labels = e.getString("labels");
            }
        }
        Profile back = read(file);

        assertThat(labels).startsWith("br=x]y] tid=5], html=").contains("jfr=a\\, b=c\\\\d\\,, long=")
                .endsWith(", semi=a;b;c 99");
        assertThat(TestProfiles.typedStacks(back)).isEqualTo(TestProfiles.typedStacks(hostile()));
        assertThat(convertedStacks(file)).containsOnly(Map.entry("[main tid=1];a/B.work_[j]", 3L),
                Map.entry("[main tid=1];a/B.idle_[j]", 1L));
    }

    private static Map<String, Long> convertedStacks(Path file) throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        args.threads = true;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        JfrToFlame converter;
        try (JfrReader reader = new JfrReader(file.toString())) {
            converter = new JfrToFlame(reader, args);
            converter.convert();
        }
        converter.dump(out);
        Map<String, Long> stacks = new java.util.TreeMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                int space = line.lastIndexOf(' ');
                stacks.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
            }
        }
        return stacks;
    }
}
