package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SampleStreamTest {
    private static final ProfileInfo INFO = new ProfileInfo("suspend", "cpu", 10_000_000L, 0, 0, List.of());

    private static Profile period(Frame[]... stacks) {
        ProfileAccumulator acc = new ProfileAccumulator();
        long n = 1;
        for (Frame[] s : stacks) {
            acc.add(s, n, n * 1000);
            n++;
        }
        return acc.snapshot(INFO);
    }

    private static ProfileAccumulator readBack(String stream, List<String> notes) throws IOException {
        ProfileAccumulator back = new ProfileAccumulator();
        new SampleStreamReader(1000).read(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)), back,
                notes::add);
        return back;
    }

    @Test
    void stacksFramesAndNotesComeBackAsTheyWereWhateverTheNamesHold() throws IOException {
        Frame hostile = new Frame("Evil;Name\nS 99 99 0\\u0041 \u00e9\u4e2d\r", FrameType.JIT_COMPILED);
        Frame root = Frame.thread("main", 7);
        Frame leaf = Frame.nativeCode("NtDelayExecution\tx", "nt dll\t.dll", 0x9d2f0);
        StringWriter out = new StringWriter();
        SampleStreamWriter writer = new SampleStreamWriter(out, 1000);
        writer.write(period(new Frame[] {root, hostile, leaf}, new Frame[] {root, leaf}));
        writer.write(period(new Frame[] {root, hostile, leaf}));
        writer.note("threads stopped 1.0 \u00b5s p50\nforged");

        List<String> notes = new ArrayList<>();
        ProfileAccumulator back = readBack(out.toString(), notes);
        Profile p = back.snapshot(INFO);

        assertThat(out.toString().lines()).as("one line per record").allMatch(l -> l.matches("^[FSNR]( .*)?$"));
        assertThat(out.toString().lines().filter(l -> l.startsWith("F "))).as("each frame sent once").hasSize(3);
        assertThat(notes).containsExactly("threads stopped 1.0 \u00b5s p50\nforged");
        assertThat(back.totalSamples()).isEqualTo(1 + 2 + 1);
        List<String> stacks = new ArrayList<>();
        for (Profile.Stack s : p.stacks()) {
            StringBuilder b = new StringBuilder();
            for (Frame f : p.framesOf(s)) {
                b.append(f.type()).append(':').append(f.name());
                if (f.module() != null) {
                    b.append('@').append(f.module()).append('+').append(Long.toHexString(f.offset()));
                }
                b.append('|');
            }
            stacks.add(b + " " + s.samples() + " " + s.weightNanos());
        }
        assertThat(stacks).containsExactlyInAnyOrder(
                "THREAD:[main tid=7]|JIT_COMPILED:" + hostile.name() + "|NATIVE:NtDelayExecution\tx@nt dll\t.dll+9d2f0| 2 2000",
                "THREAD:[main tid=7]|NATIVE:NtDelayExecution\tx@nt dll\t.dll+9d2f0| 2 2000");
    }

    @Test
    void timesComeBackWithEachStacksWeightSharedAmongThem() throws IOException {
        long t0 = 1_700_000_000_000_000_000L;
        Frame[] a = {Frame.thread("main", 7), new Frame("a/B.run", FrameType.JIT_COMPILED)};
        Frame[] b = {Frame.thread("main", 7), new Frame("a/B.wait", FrameType.JIT_COMPILED)};
        ProfileAccumulator acc = new ProfileAccumulator();
        acc.recordTimes();
        acc.add(a, 2, 1, 7, t0);
        acc.add(a, 2, 2, 14, t0 + 5_000_000L);
        acc.add(b, 2, 1, 7, t0 + 5_000_000L);
        acc.add(b, 2, 1, 7); // no time
        StringWriter out = new StringWriter();
        new SampleStreamWriter(out, 1000).write(acc.snapshot(INFO));

        ProfileAccumulator back = new ProfileAccumulator();
        back.recordTimes();
        new SampleStreamReader(1000).read(new ByteArrayInputStream(out.toString().getBytes(StandardCharsets.UTF_8)),
                back, n -> { });
        Profile p = back.snapshot(INFO);

        List<String> times = new ArrayList<>();
        for (int i = 0; i < p.times().size(); i++) {
            times.add((p.times().epochNanos(i) - t0) / 1_000_000L + " "
                    + p.framesOf(p.stacks().get(p.times().stack(i)))[1].name() + " " + p.times().count(i));
        }
        assertThat(times).containsExactly("0 a/B.run 1", "5 a/B.run 2", "5 a/B.wait 1");
        assertThat(TestProfiles.frameStacks(p)).containsOnly(Map.entry(List.of(a), 3L), Map.entry(List.of(b), 2L));
        assertThat(p.totalWeightNanos()).isEqualTo(35);
    }

    @Test
    void aFullFrameTableStartsAgainAndTheReaderFollows() throws IOException {
        StringWriter out = new StringWriter();
        SampleStreamWriter writer = new SampleStreamWriter(out, 3);
        Frame a = new Frame("a", FrameType.NATIVE);
        Frame b = new Frame("b", FrameType.NATIVE);
        Frame c = new Frame("c", FrameType.NATIVE);
        writer.write(period(new Frame[] {a, b}));
        writer.write(period(new Frame[] {a, c}));
        assertThat(out.toString()).contains("\nR\n");
        ProfileAccumulator back = readBack(out.toString(), new ArrayList<>());
        assertThat(back.distinctStacks()).isEqualTo(2);
        assertThat(back.distinctFrames()).isEqualTo(3);
    }

    @Test
    void anUnknownFrameIdOrRecordFailsWithItsLineAndKeepsWhatCameBefore() {
        ProfileAccumulator back = new ProfileAccumulator();
        String stream = "F 0 NATIVE a\nS 1 10 0\nS 1 10 5\nS 1 10 0\n";
        assertThatThrownBy(() -> new SampleStreamReader(10).read(
                new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)), back, n -> { }))
                .isInstanceOf(IOException.class).hasMessageContaining("line 3").hasMessageContaining("unknown frame id 5");
        assertThat(back.totalSamples()).isEqualTo(1);
        assertThatThrownBy(() -> readBack("X what\n", new ArrayList<>())).hasMessageContaining("unknown record");
        assertThatThrownBy(() -> new SampleStreamReader(1).read(new ByteArrayInputStream("F 0 NATIVE a\nF 1 NATIVE b\n".getBytes(StandardCharsets.UTF_8)), new ProfileAccumulator(), n -> { }))
                .as("over the frame bound").isInstanceOf(IOException.class);
    }

    @Test
    void modulesAreSentOnceEachInTheirOrderWhateverTheirPathsHold() throws IOException {
        io.mixflame.profile.NativeModule java = new io.mixflame.profile.NativeModule("java.exe",
                "C:\\jre\\bin\\java.exe", "");
        io.mixflame.profile.NativeModule hostile = new io.mixflame.profile.NativeModule("x\tM y",
                "C:\\Temp\\x\nM forged\t.dll", "00ff");
        StringWriter out = new StringWriter();
        SampleStreamWriter writer = new SampleStreamWriter(out, 1000);
        writer.modules(List.of(java));
        writer.modules(List.of(java, hostile));

        List<io.mixflame.profile.NativeModule> back = new ArrayList<>();
        new SampleStreamReader(1000).read(new ByteArrayInputStream(out.toString().getBytes(StandardCharsets.UTF_8)),
                new ProfileAccumulator(), n -> { }, back::add);

        assertThat(back).containsExactly(java, hostile);
        assertThat(out.toString().lines()).hasSize(2);
    }

    @Test
    void labelFramesComeBackAsLabelsWhateverTheirValuesHold() throws IOException {
        Frame label = Frame.label("q", "a;b]\\u0041 S 1 1 0");
        Frame[] stack = {Frame.thread("main", 7), Frame.label("endpoint", "/checkout"), label,
                new Frame("a/B.c", FrameType.JIT_COMPILED)};
        StringWriter out = new StringWriter();
        new SampleStreamWriter(out, 1000).write(period(stack));

        Profile p = readBack(out.toString(), new ArrayList<>()).snapshot(INFO);

        assertThat(out.toString().lines()).as("one line per record").allMatch(l -> l.matches("^[FS] .*$"));
        assertThat(TestProfiles.frameStacks(p)).containsOnly(Map.entry(List.of(stack), 1L));
        assertThat(p.frames()).filteredOn(f -> f.type() == FrameType.LABEL).extracting(Frame::labelValue)
                .containsExactlyInAnyOrder("/checkout", "a;b]\\u0041 S 1 1 0");
    }

    @Test
    void aLabelFrameWithoutAKeyFailsTheStreamWithItsLine() {
        assertThatThrownBy(() -> readBack("F 0 NATIVE a\nF 1 LABEL [no key]\nS 1 10 0,1\n", new ArrayList<>()))
                .isInstanceOf(IOException.class).hasMessageContaining("line 2").hasMessageNotContaining("\n");
    }
}

