package io.mixflame.engine.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AllocationIntervalTest {
    private static final long INTERVAL = 512 * 1024;

    @Test
    void withoutAnIntervalEverySampleIsKeptAsItIs() {
        AllocationInterval none = new AllocationInterval(0);
        assertThat(none.weigh(100, 0)).isEqualTo(100);
        assertThat(none.weigh(10_000_000, 0)).isEqualTo(10_000_000);
    }

    @Test
    void samplesOfTheIntervalOrMoreAreKeptAsTheyAre() {
        AllocationInterval thinned = new AllocationInterval(INTERVAL);
        assertThat(thinned.weigh(INTERVAL, INTERVAL - 1)).isEqualTo(INTERVAL);
        assertThat(thinned.weigh(3 * INTERVAL, INTERVAL - 1)).isEqualTo(3 * INTERVAL);
    }

    @Test
    void smallerSamplesKeepTheirBytesOnAverageInAboutOneSamplePerInterval() {
        AllocationInterval thinned = new AllocationInterval(INTERVAL);
        SplittableRandom random = new SplittableRandom(25);
        int n = 400_000;
        long bytes = 0;
        long weighed = 0;
        long kept = 0;
        for (int i = 0; i < n; i++) {
            long b = 1 + random.nextLong(INTERVAL / 4);
            bytes += b;
            long w = thinned.weigh(b, random.nextLong(INTERVAL));
            if (w != AllocationInterval.LEFT_OUT) {
                assertThat(w).isEqualTo(INTERVAL);
                weighed += w;
                kept++;
            }
        }
        // Kept samples are a binomial count with mean bytes/INTERVAL (about 25 000 here): four standard errors of
        // that count, which chance exceeds about once in 16 000 seeds (this one is fixed, so the test repeats).
        double expected = (double) bytes / INTERVAL;
        assertThat((double) kept).isCloseTo(expected, org.assertj.core.data.Offset.offset(4 * Math.sqrt(expected)));
        assertThat((double) weighed / bytes).isCloseTo(1.0, org.assertj.core.data.Offset.offset(4 / Math.sqrt(expected)));
    }
}
