package io.mixflame.report;

import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.mixflame.profile.Frame;
import io.mixflame.profile.Profile;
import org.junit.jupiter.api.Test;

class ProfileTransformsTest {

    private static final Profile PROFILE = TestProfiles.with(TestProfiles.JFR_CPU.withNote("kept note"))
            .addJava(5, "main;app/Server.handle;java/util/HashMap.get")
            .addJava(3, "main;app/Server.handle;app/Db.query")
            .addJava(2, "main;app/Gc.run")
            .build();

    @Test
    void spansLeaveNameOnlyOutputsOrBecomeOneFrameEachWhereAsked() throws java.io.IOException {
        Profile spans = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(4, Frame.thread("main", 1), Frame.label("endpoint", "/cpu"), Frame.label("span_id", "b7ad"),
                        Frame.label("span_name", "GET /cpu"), Frame.label("trace_id", "0af7"), jit("a/Shop.burn"))
                .add(3, Frame.thread("main", 1), Frame.label("endpoint", "/cpu"), Frame.label("span_id", "c8be"),
                        Frame.label("span_name", "GET /cpu"), Frame.label("trace_id", "1b08"), jit("a/Shop.burn"))
                .add(2, Frame.thread("pool", 2), Frame.label("span_id", "other"), jit("a/Shop.work"))
                .add(1, Frame.thread("pool", 2), jit("a/Shop.work"))
                .build();

        assertThat(collapsed(spans, false)).containsExactlyInAnyOrder("[main tid=1];[endpoint=/cpu];a/Shop.burn 7",
                "[pool tid=2];a/Shop.work 3");
        assertThat(collapsed(spans, true)).containsExactlyInAnyOrder(
                "[main tid=1];[endpoint=/cpu];[span=GET /cpu];a/Shop.burn 7", "[pool tid=2];[span=other];a/Shop.work 2",
                "[pool tid=2];a/Shop.work 1");
        // The formats that keep labels as fields keep the ids.
        assertThat(ProfileTransforms.apply(spans, ReportOptions.DEFAULT)).isSameAs(spans);
        assertThat(ProfileTransforms.spans(PROFILE, true)).as("a profile without spans").isSameAs(PROFILE);
    }

    private static java.util.List<String> collapsed(Profile p, boolean spanFrames) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ProfileFiles.write(p, out, OutputFormat.COLLAPSED, new ReportOptions(null, FrameFilter.NONE, false,
                FrameStyle.DEFAULT, TextSummary.DEFAULT, spanFrames));
        return out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("#")).toList();
    }

    @Test
    void filteringAndReversingKeepEachKeptStacksTimes() {
        long t0 = 1_700_000_000_000_000_000L;
        io.mixflame.profile.ProfileAccumulator acc = new io.mixflame.profile.ProfileAccumulator();
        acc.recordTimes();
        Frame[] gc = {jit("main"), jit("app/Gc.run")};
        Frame[] handle = {jit("main"), jit("app/Server.handle")};
        acc.add(gc, 2, 1, 10, t0);
        acc.add(handle, 2, 1, 10, t0 + 3_000_000L);
        acc.add(gc, 2, 1, 10, t0 + 4_000_000L);
        Profile timed = acc.snapshot(TestProfiles.JFR_CPU);

        Profile kept = ProfileTransforms.reverse(
                ProfileTransforms.filter(timed, TestProfiles.filter(null, "Server"), FrameStyle.DEFAULT));

        java.util.List<String> times = new java.util.ArrayList<>();
        for (int i = 0; i < kept.times().size(); i++) {
            times.add((kept.times().epochNanos(i) - t0) / 1_000_000L + " "
                    + kept.framesOf(kept.stacks().get(kept.times().stack(i)))[0].name());
        }
        assertThat(times).containsExactly("0 app/Gc.run", "4 app/Gc.run");
    }

    @Test
    void includeKeepsStacksWithAMatchingFrameAnywhereInTheName() {
        Profile filtered = ProfileTransforms.filter(PROFILE, TestProfiles.filter("Server", null), FrameStyle.DEFAULT);

        assertThat(TestProfiles.collapsedStacks(filtered)).containsOnly(
                entry("main_[j];app/Server.handle_[j];java/util/HashMap.get_[j]", 5L),
                entry("main_[j];app/Server.handle_[j];app/Db.query_[j]", 3L));
        assertThat(filtered.info()).isEqualTo(PROFILE.info());
        assertThat(filtered.totalWeightNanos()).isEqualTo(80_000_000L);
    }

    @Test
    void excludeDropsStacksWithAMatchingFrame() {
        Profile filtered = ProfileTransforms.filter(PROFILE, TestProfiles.filter(null, "HashMap"), FrameStyle.DEFAULT);

        assertThat(TestProfiles.collapsedStacks(filtered)).containsOnly(
                entry("main_[j];app/Server.handle_[j];app/Db.query_[j]", 3L),
                entry("main_[j];app/Gc.run_[j]", 2L));
    }

    @Test
    void includeAndExcludeTogether() {
        Profile filtered = ProfileTransforms.filter(PROFILE, TestProfiles.filter("^app/", "Db"), FrameStyle.DEFAULT);

        assertThat(TestProfiles.collapsedStacks(filtered)).containsOnly(
                entry("main_[j];app/Server.handle_[j];java/util/HashMap.get_[j]", 5L),
                entry("main_[j];app/Gc.run_[j]", 2L));
    }

    @Test
    void patternsSeeNamesWithoutTypeSuffix() {
        Profile filtered = ProfileTransforms.filter(PROFILE, TestProfiles.filter("query$", null), FrameStyle.DEFAULT);

        assertThat(filtered.totalSamples()).isEqualTo(3);
    }

    @Test
    void includeMatchingNothingLeavesAnEmptyProfile() {
        Profile filtered = ProfileTransforms.filter(PROFILE, TestProfiles.filter("nothing-like-this", null), FrameStyle.DEFAULT);

        assertThat(filtered.stacks()).isEmpty();
        assertThat(filtered.info()).isEqualTo(PROFILE.info());
    }

    @Test
    void noPatternsIsTheSameProfile() {
        assertThat(ProfileTransforms.filter(PROFILE, TestProfiles.filter(null, null), FrameStyle.DEFAULT)).isSameAs(PROFILE);
    }

    @Test
    void reversePutsTheLeafFirst() {
        Profile reversed = ProfileTransforms.reverse(PROFILE);

        assertThat(TestProfiles.collapsedStacks(reversed)).containsOnly(
                entry("java/util/HashMap.get_[j];app/Server.handle_[j];main_[j]", 5L),
                entry("app/Db.query_[j];app/Server.handle_[j];main_[j]", 3L),
                entry("app/Gc.run_[j];main_[j]", 2L));
        assertThat(reversed.totalWeightNanos()).isEqualTo(PROFILE.totalWeightNanos());
        assertThat(TestProfiles.frameStacks(ProfileTransforms.reverse(reversed)))
                .isEqualTo(TestProfiles.frameStacks(PROFILE));
    }

    @Test
    void reverseKeepsTheThreadFrameAtTheRoot() {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(4, Frame.thread("main", 9), jit("a"), jit("b"), jit("c"))
                .add(1, Frame.thread("solo", 2))
                .build();

        assertThat(TestProfiles.collapsedStacks(ProfileTransforms.reverse(profile))).containsOnly(
                entry("[main tid=9];c_[j];b_[j];a_[j]", 4L),
                entry("[solo tid=2]", 1L));
    }

    @Test
    void applyFiltersThenReverses() {
        Profile result = ProfileTransforms.apply(PROFILE,
                new ReportOptions("ignored", TestProfiles.filter("Gc", null), true, FrameStyle.DEFAULT));

        assertThat(TestProfiles.collapsedStacks(result)).containsOnly(entry("app/Gc.run_[j];main_[j]", 2L));
    }

    @Test
    void reverseKeepsTheLabelsWithTheThreadAtTheRoot() {
        Profile reversed = ProfileTransforms.reverse(TestProfiles.labelled());

        assertThat(TestProfiles.typedStacks(reversed)).containsOnly(
                entry("THREAD:[main tid=1];LABEL:[endpoint=/checkout];LABEL:[tenant=acme];"
                        + "JIT_COMPILED:a/Db.query;JIT_COMPILED:a/Shop.checkout", 5L),
                entry("THREAD:[main tid=1];LABEL:[endpoint=/search];LABEL:[tenant=acme];"
                        + "JIT_COMPILED:a/Db.query;JIT_COMPILED:a/Shop.search", 3L),
                entry("THREAD:[worker tid=2];LABEL:[endpoint=/checkout];JIT_COMPILED:a/Shop.checkout", 2L),
                entry("LABEL:[endpoint=/search];JIT_COMPILED:a/Shop.search", 1L),
                entry("THREAD:[main tid=1];JIT_COMPILED:a/Idle.run", 4L));
        assertThat(TestProfiles.frameStacks(ProfileTransforms.reverse(reversed)))
                .isEqualTo(TestProfiles.frameStacks(TestProfiles.labelled()));
    }

    @Test
    void includeOfALabelFrameKeepsOnlyTheSamplesTakenUnderThatLabel() {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(5, Frame.thread("main", 1), Frame.label("endpoint", "/a"), jit("app/Handler.run"))
                .add(3, Frame.thread("main", 1), Frame.label("endpoint", "/ab"), jit("app/Handler.run"))
                .add(2, Frame.thread("main", 1), Frame.label("endpoint", "/b"), jit("app/Handler.run"))
                .add(1, Frame.thread("main", 1), jit("app/Handler.run"))
                .build();

        Profile exact = ProfileTransforms.filter(profile, TestProfiles.filter("[endpoint=/a]", null), FrameStyle.DEFAULT);
        Profile glob = ProfileTransforms.filter(profile, TestProfiles.filter("[endpoint=/a*]", null), FrameStyle.DEFAULT);
        Profile excluded = ProfileTransforms.filter(profile, TestProfiles.filter(null, "[endpoint=*]"), FrameStyle.DEFAULT);

        assertThat(TestProfiles.collapsedStacks(exact))
                .containsOnly(entry("[main tid=1];[endpoint=/a];app/Handler.run_[j]", 5L));
        assertThat(glob.totalSamples()).isEqualTo(5 + 3);
        assertThat(TestProfiles.collapsedStacks(excluded)).containsOnly(entry("[main tid=1];app/Handler.run_[j]", 1L));
    }
}

