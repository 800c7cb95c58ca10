package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TextSummaryWriterTest {

    private static String write(TextSummary parts) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileFiles.write(HotFramesTest.PROFILE, out, OutputFormat.TEXT,
                new ReportOptions(null, FrameFilter.NONE, false, FrameStyle.DEFAULT, parts));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void summaryThenTheHeaviestStacksLeafFirstThenTheHottestFrames() throws Exception {
        String text = write(new TextSummary(true, 2, 2));
        assertThat(text).startsWith("--- Execution profile ---\n").contains("Total samples       : 100\n",
                "Distinct stacks     : 4\n");
        assertThat(text).contains("--- 40 samples (40.00%), 400000000 ns\n  [0] b\n  [1] a\n  [2] main\n\n"
                + "--- 30 samples (30.00%), 300000000 ns\n  [0] a\n  [1] main\n\n");
        assertThat(text).doesNotContain("--- 20 samples");
        assertThat(text).endsWith("rank  self %  self  total %  total  frame\n"
                + "   1   50.0%    50    90.0%     90  a\n"
                + "   2   40.0%    40    40.0%     40  b\n");
    }

    @Test
    void eachPartOnlyWhenAskedAndAllStacksWithoutABound() throws Exception {
        String traces = write(new TextSummary(false, Long.MAX_VALUE, 0));
        assertThat(traces).doesNotContain("Execution profile", "rank");
        assertThat(traces.lines().filter(l -> l.startsWith("--- "))).hasSize(4);
        String flat = write(new TextSummary(false, 0, 1));
        assertThat(flat).isEqualTo("rank  self %  self  total %  total  frame\n   1   50.0%    50    90.0%     90  a\n");
    }

    @Test
    void namesCannotBreakALine() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileFiles.write(TestProfiles.with(TestProfiles.JFR_CPU).addJava(1, "main;evil\nname").build(), out,
                OutputFormat.TEXT, new ReportOptions(null, FrameFilter.NONE, false, FrameStyle.DEFAULT,
                        new TextSummary(false, 1, 0)));
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("evil\nname").contains("evil");
    }
}
