package io.mixflame.report;

import static io.mixflame.report.TestProfiles.frame;
import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlFlameGraphWriterTest {

    @TempDir
    Path dir;

    /** The page read back as a file, as {@code report} reads it. */
    private Profile readBack(String html) throws IOException {
        Path page = dir.resolve("page.html");
        Files.writeString(page, html);
        return ProfileFiles.read(page, w -> { throw new AssertionError(w); });
    }

    private static String write(Profile profile, HtmlFlameGraphWriter writer) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(profile, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void framesAreSpelledInTheGivenStyleWithoutTypeSuffixes() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(2, jit("app/Main.run"), Frame.nativeCode("JavaCalls::call(JavaValue*)", "libjvm.so", 16))
                .build();

        String plain = write(profile, new HtmlFlameGraphWriter());
        String styled = write(profile, new HtmlFlameGraphWriter(null, false, new FrameStyle(true, true, true)));

        assertThat(plain).contains("JavaCalls::call'").doesNotContain("JavaValue").doesNotContain("_[j]");
        assertThat(styled).contains("libjvm.so`JavaCalls::call(JavaValue*)'").doesNotContain("_[j]");
    }

    private static Profile sample() {
        Frame thread = Frame.thread("main", 7);
        return TestProfiles.with(TestProfiles.JFR_CPU)
                .add(1000, thread, jit("java/lang/Thread.run"), jit("com/x/App.work"))
                .add(200, thread, jit("java/lang/Thread.run"), frame("com/x/App.slow", FrameType.INTERPRETED),
                        frame("Unsafe_Park", FrameType.NATIVE), frame("futex_wait", FrameType.KERNEL))
                .add(30, thread, frame("JVM::stub;call\nx", FrameType.STUB))
                .add(4, Frame.UNKNOWN)
                .build();
    }

    @Test
    void pageParsesBackToTheSameStacksAndCounts() throws IOException {
        String html = write(sample(), new HtmlFlameGraphWriter());

        // FlameGraph keeps one frame per Java method and shows the kind most of its samples had.
        assertThat(TestProfiles.parseHtml(html)).containsOnly(
                entry("[main tid=7];java/lang/Thread.run_[j];com/x/App.work_[j]", 1000L),
                entry("[main tid=7];java/lang/Thread.run_[j];com/x/App.slow_[0];Unsafe_Park;futex_wait_[k]", 200L),
                entry("[main tid=7];JVM::stub:call x", 30L),
                entry("[unknown]", 4L));
    }

    @Test
    void titleNamesEngineEventAndSamples() throws IOException {
        String html = write(sample(), new HtmlFlameGraphWriter());

        assertThat(html).contains("<h1>mixflame: cpu profile (jfr engine), 1 234 samples</h1>");
    }

    @Test
    void callersTitleIsEscapedAndStillNamesTheEngineAndNotes() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU.withNote("overhead 1%")).addJava(1, "a").build();

        String html = write(profile, new HtmlFlameGraphWriter("checkout <prod> & co", false, FrameStyle.DEFAULT));

        assertThat(html).contains("<h1>checkout &lt;prod&gt; &amp; co — engine jfr — overhead 1%</h1>");
    }

    @Test
    void reverseDrawsLeafFirstKeepingTheThreadAtTheRoot() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(5, Frame.thread("main", 1), jit("a/A.root"), jit("a/A.leaf"))
                .build();

        String html = write(profile, new HtmlFlameGraphWriter(null, true, FrameStyle.DEFAULT));

        assertThat(TestProfiles.parseHtml(html))
                .containsOnly(entry("[main tid=1];a/A.leaf_[j];a/A.root_[j]", 5L));
        assertThat(html).contains("let inverted = true;");
    }

    @Test
    void typeBytesFollowFlameGraphsColours() {
        assertThat(FlameGraphs.typeOf(frame("x", FrameType.INTERPRETED))).isEqualTo((byte) 0);
        assertThat(FlameGraphs.typeOf(frame("x", FrameType.JIT_COMPILED))).isEqualTo((byte) 1);
        assertThat(FlameGraphs.typeOf(frame("x", FrameType.INLINED))).isEqualTo((byte) 2);
        assertThat(FlameGraphs.typeOf(frame("malloc", FrameType.NATIVE))).isEqualTo((byte) 3);
        assertThat(FlameGraphs.typeOf(frame("os::malloc", FrameType.NATIVE))).isEqualTo((byte) 4);
        assertThat(FlameGraphs.typeOf(frame("x", FrameType.KERNEL))).isEqualTo((byte) 5);
        assertThat(FlameGraphs.typeOf(frame("x", FrameType.C1_COMPILED))).isEqualTo((byte) 6);
        assertThat(FlameGraphs.typeOf(frame("x", FrameType.STUB))).isEqualTo((byte) 4);
        assertThat(FlameGraphs.typeOf(Frame.thread("t", 1))).isEqualTo((byte) 3);
        assertThat(FlameGraphs.typeOf(Frame.UNKNOWN)).isEqualTo((byte) 3);
    }

    @Test
    void namesFromTheApplicationCannotBreakOutOfTheScriptBlock() throws IOException {
        String html = write(HostileNames.profile(), new HtmlFlameGraphWriter());

        HostileNames.assertScriptSafe(html);
        // The page shows the true name: the JS escape stands for the character itself.
        assertThat(html).contains("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>");
    }

    @Test
    void labelsAreFramesOfThePageAndReadBackAsLabels() throws IOException {
        Profile profile = TestProfiles.labelled();
        String html = write(profile, new HtmlFlameGraphWriter());

        assertThat(TestProfiles.parseHtml(html)).containsEntry(
                "[main tid=1];[endpoint=/checkout];[tenant=acme];a/Shop.checkout_[j];a/Db.query_[j]", 5L);
        assertThat(TestProfiles.typedStacks(readBack(html)))
                .isEqualTo(TestProfiles.typedStacks(profile));
    }

    @Test
    void reverseKeepsTheLabelsWithTheThreadAtTheRoot() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(5, Frame.thread("main", 1), Frame.label("endpoint", "/a"), Frame.label("tenant", "t"),
                        jit("a/A.root"), jit("a/A.leaf"))
                .add(2, Frame.label("endpoint", "/b"), jit("a/A.root"), jit("a/A.leaf"))
                .build();

        String html = write(profile, new HtmlFlameGraphWriter(null, true, FrameStyle.DEFAULT));

        assertThat(TestProfiles.parseHtml(html)).containsOnly(
                entry("[main tid=1];[endpoint=/a];[tenant=t];a/A.leaf_[j];a/A.root_[j]", 5L),
                entry("[endpoint=/b];a/A.leaf_[j];a/A.root_[j]", 2L));
        assertThat(html).contains("let inverted = true;");
    }

    @Test
    void labelsTakeTheColourOfThreadsAndMarkersTheRendererHasNoMoreColours() {
        assertThat(FlameGraphs.typeOf(Frame.label("endpoint", "/a"))).isEqualTo(FlameGraphs.typeOf(Frame.thread("t", 1)))
                .isLessThan((byte) 7);
    }

    @Test
    void labelValuesFromTheApplicationCannotBreakOutOfTheScriptBlock() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(3, Frame.thread("main", 1), Frame.label("q", HostileNames.BREAKOUT + "<!--\u2028"), jit("a/B.c"))
                .build();

        String html = write(profile, new HtmlFlameGraphWriter());

        HostileNames.assertScriptSafe(html);
        assertThat(TestProfiles.typedStacks(readBack(html))).isEqualTo(TestProfiles.typedStacks(profile));
    }
}

