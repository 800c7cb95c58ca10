package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class SampleLossTest {
    @Test
    void readsTheCountsFromThePerfEnginesNote() {
        assertThat(SampleLoss.fromNotes(List.of("something else",
                "9400 samples, 50 lost, 44 dropped, 121.9 µs p50 / 22806.5 µs p99 per sample, sampler 8.50% of one core")))
                .contains(new SampleLoss(9400, 50, 44));
    }

    @Test
    void notesWithoutCountsGiveNothing() {
        assertThat(SampleLoss.fromNotes(List.of("1430 wall-clock ticks, 1640 blocked stacks walked"))).isEmpty();
        assertThat(SampleLoss.fromNotes(List.of())).isEmpty();
    }

    @Test
    void missedShareCountsLostSamplesAmongThoseTaken() {
        // 50 lost were never delivered; 44 of the 9400 delivered were dropped: 94 of 9450 taken.
        assertThat(new SampleLoss(9400, 50, 44).missedShare()).isCloseTo(94.0 / 9450, within(1e-12));
        assertThat(new SampleLoss(0, 0, 0).missedShare()).isZero();
    }

    @Test
    void runsAddUp() {
        assertThat(new SampleLoss(10, 1, 2).plus(new SampleLoss(20, 3, 4))).isEqualTo(new SampleLoss(30, 4, 6));
    }
}
