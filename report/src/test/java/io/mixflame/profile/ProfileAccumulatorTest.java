package io.mixflame.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileAccumulatorTest {
    private static Frame f(String name) {
        return new Frame(name, FrameType.NATIVE);
    }

    @Test
    void identicalStacksMergeAndMemoryGrowsWithDistinctStacksOnly() {
        ProfileAccumulator acc = new ProfileAccumulator();
        Frame[] stack = {f("main"), f("work")};
        for (int i = 0; i < 10_000; i++) {
            acc.add(stack, 1, 10);
        }
        acc.add(new Frame[] {f("main"), f("idle")}, 2, 0);
        Profile p = acc.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).hasSize(2);
        assertThat(p.frames()).hasSize(3);
        assertThat(p.totalSamples()).isEqualTo(10_002);
        assertThat(p.totalWeightNanos()).isEqualTo(100_000);
    }

    @Test
    void aRenamedFrameShowsItsNewNameInEveryStackCountedBeforeAndAfter() {
        ProfileAccumulator acc = new ProfileAccumulator();
        Frame provisional = f("[pool-wo tid=3]");
        Frame named = f("[pool-worker-1 tid=3]");
        acc.add(new Frame[] {provisional, f("work")}, 2, 20);
        acc.add(new Frame[] {provisional, f("idle")}, 1, 10);
        acc.rename(provisional, named);
        acc.add(new Frame[] {named, f("work")}, 1, 10);
        acc.add(new Frame[] {provisional, f("work")}, 1, 10);
        acc.rename(f("never counted"), f("anything"));
        Profile p = acc.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).hasSize(2);
        assertThat(p.frames()).extracting(Frame::name).doesNotContain("[pool-wo tid=3]", "anything");
        assertThat(p.framesOf(p.stacks().get(0))[0]).isEqualTo(named);
        assertThat(p.stacks().get(0).samples()).isEqualTo(4);
        assertThat(acc.frameNameChars()).isEqualTo(named.name().length() + "work".length() + "idle".length());
    }

    @Test
    void aFrameRenamedToOneAlreadyCountedShowsTheSameNameAndTheCountsStay() {
        ProfileAccumulator acc = new ProfileAccumulator();
        acc.add(new Frame[] {f("[a tid=1]"), f("work")}, 1, 0);
        acc.add(new Frame[] {f("[b tid=1]"), f("work")}, 2, 0);
        acc.rename(f("[a tid=1]"), f("[b tid=1]"));
        Profile p = acc.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).extracting(s -> p.framesOf(s)[0].name()).containsOnly("[b tid=1]");
        assertThat(p.totalSamples()).isEqualTo(3);
    }

    @Test
    void theSameFrameObjectsAfterAResetAreNamedAsTheNewProfileNumbersThem() {
        // Engines hand the same Frame objects sample after sample; a profile written per period starts its frame
        // numbers again, and a frame seen before the reset must not keep its old number.
        ProfileAccumulator acc = new ProfileAccumulator();
        Frame main = f("main");
        Frame work = f("work");
        Frame other = f("other");
        acc.add(new Frame[] {main, work}, 1, 0);
        acc.snapshotAndReset(ProfileInfo.unknown());
        acc.add(new Frame[] {other, main}, 1, 0);
        acc.add(new Frame[] {main, work}, 1, 0);

        Profile p = acc.snapshot(ProfileInfo.unknown());
        List<String> stacks = new ArrayList<>();
        for (Profile.Stack s : p.stacks()) {
            StringBuilder line = new StringBuilder();
            for (Frame frame : p.framesOf(s)) {
                line.append(frame.name()).append(';');
            }
            stacks.add(line.toString());
        }
        assertThat(stacks).containsExactlyInAnyOrder("other;main;", "main;work;");
    }

    @Test
    void equalFramesThatAreDistinctObjectsShareOneNumber() {
        ProfileAccumulator acc = new ProfileAccumulator();
        for (int i = 0; i < 100; i++) {
            acc.add(new Frame[] {f("main"), f("work")}, 1, 0);
        }
        Profile p = acc.snapshot(ProfileInfo.unknown());
        assertThat(p.frames()).hasSize(2);
        assertThat(p.stacks()).hasSize(1);
    }

    @Test
    void beyondTheCapOnStacksSamplesGoToOverflowAndTheOwnerIsToldOnce() {
        List<String> told = new ArrayList<>();
        ProfileAccumulator acc = new ProfileAccumulator(3, 100, told::add);
        for (int i = 0; i < 10; i++) {
            acc.add(new Frame[] {f("main"), f("m" + i)}, 1, 0);
        }
        acc.add(new Frame[] {f("main"), f("m0")}, 5, 0);
        Profile p = acc.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).hasSize(4);
        assertThat(told).singleElement().asString().contains("bound of 3 distinct stacks");
        long overflow = p.stacks().stream().filter(s -> p.framesOf(s)[0].equals(Frame.OVERFLOW))
                .mapToLong(Profile.Stack::samples).sum();
        assertThat(overflow).isEqualTo(7);
        assertThat(p.totalSamples()).isEqualTo(15);
        assertThat(p.info().notes()).singleElement().asString().contains("7 samples over the profile's bound");
    }

    @Test
    void beyondTheCapOnFramesToo() {
        List<String> told = new ArrayList<>();
        ProfileAccumulator acc = new ProfileAccumulator(1000, 4, told::add);
        for (int i = 0; i < 10; i++) {
            acc.add(new Frame[] {f("main"), f("m" + i)}, 1, 0);
        }
        Profile p = acc.snapshot(ProfileInfo.unknown());
        assertThat(p.frames()).hasSizeLessThanOrEqualTo(5);
        assertThat(told).singleElement().asString().contains("4 distinct frames");
    }

    @Test
    void snapshotAndResetStartsEmpty() {
        ProfileAccumulator acc = new ProfileAccumulator();
        acc.add(new Frame[] {f("a")}, 1, 0);
        assertThat(acc.snapshotAndReset(ProfileInfo.unknown()).totalSamples()).isEqualTo(1);
        assertThat(acc.snapshot(ProfileInfo.unknown()).stacks()).isEmpty();
        assertThat(acc.totalSamples()).isZero();
    }

    @Test
    void sumsThatPassLongMaxValueStopThereInsteadOfWrapping() {
        ProfileAccumulator acc = new ProfileAccumulator();
        Frame[] stack = {f("a"), f("b")};
        acc.add(stack, Long.MAX_VALUE, Long.MAX_VALUE);
        acc.add(stack, 2, 2);
        acc.add(new Frame[] {f("a"), f("c")}, 2, 2);

        Profile p = acc.snapshot(ProfileInfo.unknown());

        assertThat(p.stacks()).extracting(Profile.Stack::samples).containsExactlyInAnyOrder(Long.MAX_VALUE, 2L);
        assertThat(p.stacks()).extracting(Profile.Stack::weightNanos).containsExactlyInAnyOrder(Long.MAX_VALUE, 2L);
        assertThat(acc.totalSamples()).isEqualTo(Long.MAX_VALUE);
        assertThat(p.totalSamples()).isEqualTo(Long.MAX_VALUE);
        assertThat(p.totalWeightNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void overflowCountsSaturateToo() {
        ProfileAccumulator acc = new ProfileAccumulator(1, 100, m -> { });
        acc.add(new Frame[] {f("a")}, 1, 1);
        acc.add(new Frame[] {f("b")}, Long.MAX_VALUE, Long.MAX_VALUE);
        acc.add(new Frame[] {f("c")}, Long.MAX_VALUE, Long.MAX_VALUE);

        assertThat(acc.overflowSamples()).isEqualTo(Long.MAX_VALUE);
        Profile p = acc.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).extracting(Profile.Stack::samples).containsExactlyInAnyOrder(1L, Long.MAX_VALUE);
        assertThat(p.totalSamples()).isEqualTo(Long.MAX_VALUE);
    }
}
