package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MixflameCostNotesTest {
    private static final String LONG_RUN = "2004 samples, 0 lost, 0 dropped, 31.1 µs p50 / 11075.6 µs p99 per sample, "
            + "sampler 3.19% of one core; after the first 10 s: 12.5 µs p50 / 48.0 µs p99 per sample";

    @Test
    void theWholeRunsFiguresAndThoseAfterTheWarmUpAreReadApart() {
        assertThat(MixflameCostSection.perSample(LONG_RUN)).containsExactly(31.1, 11075.6);
        assertThat(MixflameCostSection.warmPerSample(LONG_RUN)).containsExactly(12.5, 48.0);
    }

    @Test
    void aRunShorterThanTheWarmUpHasNoWarmFigures() {
        String shortRun = "500 samples, 0 lost, 0 dropped, 90.0 µs p50 / 9000.0 µs p99 per sample, sampler 5.00% of one core";
        assertThat(MixflameCostSection.perSample(shortRun)).containsExactly(90.0, 9000.0);
        assertThat(MixflameCostSection.warmPerSample(shortRun)).isNull();
    }
}
