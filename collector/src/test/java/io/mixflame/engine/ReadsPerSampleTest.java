package io.mixflame.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReadsPerSampleTest {
    private static final long S = 1_000_000_000L;

    @Test
    void saysTheMedianOfTheSamplesAndTheMeanOfEveryReadSinceTheStart() {
        ReadsPerSample reads = new ReadsPerSample(0, 1000);
        reads.sampled(1 * S, 3);
        reads.sampled(2 * S, 3);
        reads.sampled(3 * S, 40);
        // 1000 before the start are not counted; 60 made between samples (thread lists) are, in the mean.
        assertThat(reads.describe(1000 + 46 + 60)).isEqualTo("3 reads p50 / 35.3 mean per sample");
    }

    @Test
    void addsTheSamplesAfterTheFirstTenSecondsApart() {
        ReadsPerSample reads = new ReadsPerSample(5 * S, 0);
        reads.sampled(6 * S, 90);
        reads.sampled(7 * S, 90);
        reads.sampled(8 * S, 90);
        reads.sampled(15 * S, 2);
        reads.sampled(16 * S, 4);
        assertThat(reads.describe(276)).isEqualTo("90 reads p50 / 55.2 mean per sample, after the first 10 s 2 p50 / 4 p99");
    }

    @Test
    void saysNothingWhenTheReaderDoesNotCountOrNothingWasSampled() {
        assertThat(new ReadsPerSample(0, 10).describe(20)).isEmpty();
        ReadsPerSample uncounted = new ReadsPerSample(0, -1);
        uncounted.sampled(S, -1);
        assertThat(uncounted.describe(-1)).isEmpty();
    }
}
