package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import org.junit.jupiter.api.Test;

class HotFramesTest {

    /** 100 samples: a is leaf in 50 and on 90 stacks (once in the recursive one), b leaf in 40. */
    static final Profile PROFILE = TestProfiles.with(TestProfiles.JFR_CPU)
            .addJava(40, "main;a;b")
            .addJava(30, "main;a")
            .addJava(20, "main;a;x;a")
            .addJava(10, "main;c")
            .build();

    @Test
    void selfAndTotalPerFrameNameCountingRecursionOnce() {
        HotFrames hot = HotFrames.of(PROFILE);

        assertThat(hot.totalSamples()).isEqualTo(100);
        assertThat(hot.entries()).containsExactly(
                new HotFrames.Entry("a", 50, 90),
                new HotFrames.Entry("b", 40, 40),
                new HotFrames.Entry("c", 10, 10),
                new HotFrames.Entry("main", 0, 100),
                new HotFrames.Entry("x", 0, 20));
    }

    @Test
    void kindsOfOneMethodCountAsOneFrame() {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(3, TestProfiles.jit("m"))
                .add(2, TestProfiles.frame("m", FrameType.INTERPRETED))
                .build();

        assertThat(HotFrames.of(profile).entries()).containsExactly(new HotFrames.Entry("m", 5, 5));
    }

    @Test
    void cxxFunctionsAreNamedWithoutParametersAsInAsyncProfilersOutput() {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(3, TestProfiles.frame("Foo::bar(int)", FrameType.NATIVE))
                .add(2, TestProfiles.frame("Foo::bar(long) const", FrameType.NATIVE))
                .build();

        assertThat(HotFrames.of(profile).entries()).containsExactly(new HotFrames.Entry("Foo::bar", 5, 5));
    }

    @Test
    void tableShowsTheHottestAligned() {
        String table = TopTable.render(HotFrames.of(PROFILE), 3);

        assertThat(table).isEqualTo("""
                rank  self %  self  total %  total  frame
                   1   50.0%    50    90.0%     90  a
                   2   40.0%    40    40.0%     40  b
                   3   10.0%    10    10.0%     10  c
                """);
    }

    @Test
    void tableOfAnEmptyProfileSaysSo() {
        Profile empty = Profile.empty(TestProfiles.JFR_CPU);

        assertThat(TopTable.render(HotFrames.of(empty), 5)).isEqualTo("no samples\n");
    }

    @Test
    void labelsCountTheirSamplesInTotalAndSelfOnlyWhereTheStackEndsInThem() {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(6, io.mixflame.profile.Frame.thread("main", 1), io.mixflame.profile.Frame.label("endpoint", "/a"),
                        TestProfiles.jit("a/B.work"))
                .add(3, io.mixflame.profile.Frame.label("endpoint", "/a"), TestProfiles.jit("a/B.other"))
                .add(1, io.mixflame.profile.Frame.thread("main", 1), io.mixflame.profile.Frame.label("endpoint", "/a"))
                .build();

        assertThat(HotFrames.of(profile).entries()).containsExactly(
                new HotFrames.Entry("a/B.work", 6, 6),
                new HotFrames.Entry("a/B.other", 3, 3),
                new HotFrames.Entry("[endpoint=/a]", 1, 10),
                new HotFrames.Entry("[main tid=1]", 0, 7));
        assertThat(TopTable.render(HotFrames.of(profile), 3)).contains("  a/B.work\n").contains("  [endpoint=/a]\n");
    }
}

