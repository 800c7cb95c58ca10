package io.mixflame.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TickRateTest {
    private static final long MS = 1_000_000L;

    @Test
    void fifteenSecondsAtTenMillisecondsAskForFifteenHundredAndOneTicks() {
        assertThat(TickRate.asked(15_000 * MS, 10 * MS)).isEqualTo(1501);
        assertThat(TickRate.describe(488, 15_000 * MS, 10 * MS)).isEqualTo("488 of 1501 ticks asked for (33%)");
    }

    @Test
    void aSamplerThatKeptUpSaysSo() {
        assertThat(TickRate.describe(100, 999 * MS, 10 * MS)).isEqualTo("100 of 100 ticks asked for (100%)");
    }

    @Test
    void withoutATimeOnlyTheTicksAreSaid() {
        assertThat(TickRate.describe(3, 0, 10 * MS)).isEqualTo("3 ticks");
        assertThat(TickRate.describe(3, 5 * MS, 0)).isEqualTo("3 ticks");
    }
}
