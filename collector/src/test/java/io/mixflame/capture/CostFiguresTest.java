package io.mixflame.capture;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CostFiguresTest {
    @Test
    void microsecondsHaveOneDecimalRoundedHalfUp() {
        assertThat(CostFigures.micros(4_650)).isEqualTo("4.7");
        assertThat(CostFigures.micros(4_649)).isEqualTo("4.6");
        assertThat(CostFigures.micros(0)).isEqualTo("0.0");
        assertThat(CostFigures.micros(1_234_567)).isEqualTo("1234.6");
    }

    @Test
    void aHistogramIsItsMedianAndNinetyNinthPercentile() {
        Histogram h = new Histogram(3);
        for (int i = 0; i < 98; i++) {
            h.recordValue(4_000);
        }
        h.recordValue(20_000);
        h.recordValue(20_000);
        assertThat(CostFigures.p50p99(h)).isEqualTo("4.0 µs p50 / 20.0 µs p99");
    }
}
