package io.mixflame.report;

import static io.mixflame.report.TestProfiles.frame;
import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CollapsedReaderTest {

    private final List<String> warnings = new ArrayList<>();

    private Profile read(String text) throws IOException {
        return read(text.getBytes(StandardCharsets.UTF_8), ReadBounds.DEFAULT);
    }

    private Profile read(byte[] bytes, ReadBounds bounds) throws IOException {
        return new CollapsedReader(bounds).read(new ByteArrayInputStream(bytes), warnings::add);
    }

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            byte[] b = part instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : (byte[]) part;
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    @Test
    void roundTripKeepsStacksCountsKindsAndInfo() throws IOException {
        Frame thread = Frame.thread("worker-1", 42);
        Profile written = TestProfiles.with(TestProfiles.JFR_CPU.withNote("cost 0.1%").withNote("second; note"))
                .add(7, thread, frame("java/lang/Thread.run", FrameType.INTERPRETED), jit("a/B.c"),
                        frame("a/B.d", FrameType.INLINED))
                .add(3, thread, frame("java/lang/Thread.run", FrameType.INTERPRETED),
                        frame("a/B.e", FrameType.C1_COMPILED), frame("Unsafe_Park", FrameType.NATIVE),
                        frame("futex_wait", FrameType.KERNEL))
                .add(2, Frame.TRUNCATED, jit("a/B.c"))
                .add(1, frame("JavaCalls::call_helper", FrameType.NATIVE))
                .build();

        Profile read = read(CollapsedWriterTest.write(written, TestProfiles.ANNOTATED));

        assertThat(warnings).isEmpty();
        assertThat(TestProfiles.frameStacks(read)).isEqualTo(TestProfiles.frameStacks(written));
        assertThat(read.info().engine()).isEqualTo("jfr");
        assertThat(read.info().event()).isEqualTo("cpu");
        assertThat(read.info().intervalNanos()).isEqualTo(10_000_000L);
        assertThat(read.info().notes()).containsExactly("cost 0.1%", "second: note");
        assertThat(read.totalSamples()).isEqualTo(13);
        assertThat(read.totalWeightNanos()).isEqualTo(13 * 10_000_000L);
    }

    @Test
    void malformedLinesAreReportedWithTheirNumberAndSkipped() throws IOException {
        Profile profile = read("""
                a;b 3
                no-count
                a;b x
                a;b -2
                a;;b 1
                
                # a comment
                c 2
                 5
                a; 4
                c 1
                """);

        assertThat(TestProfiles.collapsedStacks(profile)).containsOnly(entry("a;b", 3L), entry("c", 3L));
        assertThat(warnings).hasSize(6);
        assertThat(warnings.get(0)).startsWith("line 2: ").contains("no sample count");
        assertThat(warnings.get(1)).startsWith("line 3: ").contains("'x'").contains("not a whole number");
        assertThat(warnings.get(2)).startsWith("line 4: ").contains("negative");
        assertThat(warnings.get(3)).startsWith("line 5: ").contains("empty frame");
        assertThat(warnings.get(4)).startsWith("line 9: ").contains("empty frame");
        assertThat(warnings.get(5)).startsWith("line 10: ").contains("empty frame");
    }

    @Test
    void withoutHeaderTheProducerIsUnknownAndStacksWeighNothing() throws IOException {
        Profile profile = read("java/lang/Thread.run_[j];a/B.c_[i] 5\r\nx 2  \n");

        assertThat(profile.info().engine()).isEqualTo("collapsed");
        assertThat(profile.info().event()).isEqualTo("unknown");
        assertThat(profile.info().intervalNanos()).isZero();
        assertThat(profile.totalWeightNanos()).isZero();
        assertThat(TestProfiles.collapsedStacks(profile))
                .containsOnly(entry("java/lang/Thread.run_[j];a/B.c_[i]", 5L), entry("x", 2L));
        assertThat(warnings).isEmpty();
    }

    @Test
    void headerIsParsedBackAndGivesWeights() throws IOException {
        Profile profile = read("""
                # mixflame engine=perf event=wall interval=20ms samples=4 0
                # note: over budget 0
                a 4
                """);

        assertThat(profile.info().engine()).isEqualTo("perf");
        assertThat(profile.info().event()).isEqualTo("wall");
        assertThat(profile.info().intervalNanos()).isEqualTo(20_000_000L);
        assertThat(profile.info().notes()).containsExactly("over budget");
        assertThat(profile.totalWeightNanos()).isEqualTo(80_000_000L);
    }

    @Test
    void aBadIntervalInTheHeaderIsAWarningNotAFailure() throws IOException {
        Profile profile = read("# mixflame engine=perf event=cpu interval=soon samples=1 0\na 1\n");

        assertThat(profile.info().engine()).isEqualTo("perf");
        assertThat(profile.info().intervalNanos()).isZero();
        assertThat(warnings).singleElement().asString().startsWith("line 1: ").contains("interval");
    }

    @Test
    void zeroCountLinesAddNothing() throws IOException {
        Profile profile = read("a 0\nb 1\n");

        assertThat(TestProfiles.collapsedStacks(profile)).containsOnly(entry("b", 1L));
        assertThat(warnings).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "java/lang/String.hashCode_[j] | java/lang/String.hashCode | JIT_COMPILED",
        "a/B.c_[i]                     | a/B.c                     | INLINED",
        "a/B.c_[0]                     | a/B.c                     | INTERPRETED",
        "a/B.c_[1]                     | a/B.c                     | C1_COMPILED",
        "do_syscall_64_[k]             | do_syscall_64             | KERNEL",
        "java/lang/String.hashCode     | java/lang/String.hashCode | JIT_COMPILED",
        "Foo.bar                       | Foo.bar                   | JIT_COMPILED",
        "std::vector<a/b>::push        | std::vector<a/b>::push    | NATIVE",
        "/usr/lib/libc.so.6            | /usr/lib/libc.so.6        | NATIVE",
        "libjvm.so                     | libjvm.so                 | NATIVE",
        "[worker 1 tid=12]             | [worker 1 tid=12]         | THREAD",
        "[tid=12]                      | [tid=12]                  | THREAD",
        "[unknown]                     | [unknown]                 | MARKER",
        "_[j]                          | _[j]                      | NATIVE",
    })
    void frameKindsComeFromSuffixOrName(String token, String name, FrameType type) {
        assertThat(CollapsedFrames.parse(token)).isEqualTo(new Frame(name, type));
    }

    @Test
    void countsAddingUpPastLongMaxValueAreAnErrorNamingTheLine() {
        assertThatThrownBy(() -> read("a;b 9223372036854775807\n# a comment\na;c 2\n"))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("line 3: ")
                .hasMessageContaining("9223372036854775807");
    }

    @Test
    void countsUpToLongMaxValueInAllAreRead() throws IOException {
        Profile read = read("a;b 9223372036854775806\na;c 1\n");

        assertThat(read.totalSamples()).isEqualTo(Long.MAX_VALUE);
        assertThat(warnings).isEmpty();
    }

    @Test
    void aLineThatIsNotUtf8IsSkippedWithAWarningAndTheRestIsRead() throws IOException {
        Profile read = read(bytes("a;b 1\n", new byte[] {'x', (byte) 0xff, (byte) 0xfe, ' ', '2', '\n'}, "a;c 3\n"),
                ReadBounds.DEFAULT);

        assertThat(warnings).containsExactly("line 2: is not UTF-8 text");
        assertThat(TestProfiles.collapsedStacks(read)).containsOnly(entry("a;b", 1L), entry("a;c", 3L));
    }

    @Test
    void aRealReplacementCharacterIsText() throws IOException {
        Profile read = read("a;\uFFFD 2\n");

        assertThat(warnings).isEmpty();
        assertThat(TestProfiles.collapsedStacks(read)).containsOnly(entry("a;\uFFFD", 2L));
    }

    @Test
    void aCountTooLargeForALongIsAMalformedLine() throws IOException {
        Profile read = read("a 99999999999999999999\nb 1\n");

        assertThat(warnings).containsExactly("line 1: sample count 99999999999999999999 is larger than "
                + Long.MAX_VALUE);
        assertThat(read.totalSamples()).isEqualTo(1);
    }

    @Test
    void aLineLongerThanTheBoundFailsTheReadNamingLineAndBound() {
        assertThatThrownBy(() -> read(bytes("a;b 1\n", "x".repeat(100), " 1\n"), TestBounds.lineBytes(64)))
                .isInstanceOf(IOException.class)
                .hasMessage("line 2: over the bound of 64 bytes in one line");
    }

    @Test
    void aLineOfExactlyTheBoundIsRead() throws IOException {
        Profile read = read(bytes("x".repeat(62), " 1"), TestBounds.lineBytes(64));

        assertThat(read.totalSamples()).isEqualTo(1);
    }

    @Test
    void aStackDeeperThanTheBoundFailsTheRead() throws IOException {
        assertThat(read(bytes("a;b;c 1\n"), TestBounds.stackDepth(3)).totalSamples()).isEqualTo(1);
        assertThatThrownBy(() -> read(bytes("a;b;c 1\na;b;c;d 1\n"), TestBounds.stackDepth(3)))
                .isInstanceOf(IOException.class)
                .hasMessage("line 2: over the bound of 3 frames in one stack");
    }

    @Test
    void moreDistinctStacksThanTheBoundFailTheReadInsteadOfFoldingIntoOverflow() {
        assertThatThrownBy(() -> read(bytes("a;b 1\na;c 1\na;b 5\na;d 1\n"), TestBounds.stacks(2)))
                .isInstanceOf(IOException.class)
                .hasMessage("line 4: over the bound of 2 distinct stacks in one read");
    }

    @Test
    void moreDistinctFramesThanTheBoundFailTheRead() {
        assertThatThrownBy(() -> read(bytes("a;b 1\nb;a 1\nc 1\n"), TestBounds.frames(2)))
                .isInstanceOf(IOException.class)
                .hasMessage("line 3: over the bound of 2 distinct frames in one read");
    }

    @Test
    void moreTextThanTheBoundFailsTheRead() {
        assertThatThrownBy(() -> read(bytes("# note: 12345 0\naa;bb 1\naa;cc 1\n"), TestBounds.textChars(10)))
                .isInstanceOf(IOException.class)
                .hasMessage("line 3: over the bound of 10 characters of frame names and notes in one read");
    }

    @Test
    void moreFramesInAllStacksThanTheBoundFailTheRead() {
        assertThatThrownBy(() -> read(bytes("a;b 1\na;b 1\na 1\nb;a 1\n"), TestBounds.stackFrames(4)))
                .isInstanceOf(IOException.class)
                .hasMessage("line 4: over the bound of 4 frames in all distinct stacks of one read");
    }

    @Test
    void labelsComeBackAsLabelFramesAfterTheThreadOrFirst() throws IOException {
        Profile written = TestProfiles.labelled();

        Profile read = read(CollapsedWriterTest.write(written, TestProfiles.ANNOTATED));

        assertThat(warnings).isEmpty();
        assertThat(TestProfiles.frameStacks(read)).isEqualTo(TestProfiles.frameStacks(written));
        assertThat(read.frames()).filteredOn(f -> f.type() == FrameType.LABEL).extracting(Frame::name)
                .containsExactlyInAnyOrder("[endpoint=/checkout]", "[endpoint=/search]", "[tenant=acme]");
    }

    @Test
    void aBracketedKeyAndValueDeeperInTheStackIsAMarker() throws IOException {
        Profile read = read("[main tid=1];[k=v];a/B.c;[x=y];[z=w] 3\n");

        assertThat(TestProfiles.typedStacks(read)).containsOnlyKeys(
                "THREAD:[main tid=1];LABEL:[k=v];JIT_COMPILED:a/B.c;MARKER:[x=y];MARKER:[z=w]");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // A thread frame comes first; a thread whose name holds '=' is still the thread there.
        "[a=b tid=3];[k=v];x 1        | THREAD:[a=b tid=3];LABEL:[k=v];NATIVE:x",
        // After the first frame no thread can stand, so a label whose value ends like a thread's is a label.
        "[k=v];[a=b tid=3];x 1        | LABEL:[k=v];LABEL:[a=b tid=3];NATIVE:x",
        // The writer gives labels no suffix: a value ending like one is kept.
        "[k=a_[j];x 1                 | LABEL:[k=a_[j];NATIVE:x",
        // Keys must be label keys; anything else bracketed is the marker it always was.
        "[1k=v];x 1                   | MARKER:[1k=v];NATIVE:x",
        "[unknown];[k=v] 1            | MARKER:[unknown];MARKER:[k=v]",
        "[main tid=1];[truncated];[k=v] 1 | THREAD:[main tid=1];MARKER:[truncated];MARKER:[k=v]",
    })
    void labelsAreRecognisedAtTheRootEndOnly(String line, String typed) throws IOException {
        Profile read = read(line + "\n");

        assertThat(TestProfiles.typedStacks(read)).containsOnlyKeys(typed);
    }
}

