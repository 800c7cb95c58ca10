package io.mixflame.engine.wall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TickWeightTest {
    private static final long MS = 1_000_000L;

    @Test
    void punctualTicksCountOneIntervalEach() {
        TickWeight w = new TickWeight(20 * MS, 0);
        assertThat(w.next(20 * MS)).isEqualTo(1);
        assertThat(w.next(40 * MS)).isEqualTo(1);
    }

    @Test
    void aLateTickCountsTheIntervalsThatPassedAndCarriesTheRest() {
        TickWeight w = new TickWeight(20 * MS, 0);
        assertThat(w.next(70 * MS)).isEqualTo(3);
        // 10 ms carried: the next 10 ms complete an interval.
        assertThat(w.next(80 * MS)).isEqualTo(1);
        assertThat(w.next(100 * MS)).isEqualTo(1);
    }

    @Test
    void ticksAddUpToTheTimeSampled() {
        TickWeight w = new TickWeight(20 * MS, 0);
        long total = 0;
        long now = 0;
        long[] gaps = {23, 57, 19, 81, 20, 33, 44, 21, 62};
        for (long gap : gaps) {
            now += gap * MS;
            total += w.next(now);
        }
        assertThat(total).isBetween(now / (20 * MS) - 1, now / (20 * MS) + 1);
    }

    @Test
    void anEarlyTickCountsOneAndBorrowsFromTheNext() {
        TickWeight w = new TickWeight(20 * MS, 0);
        assertThat(w.next(15 * MS)).isEqualTo(1);
        assertThat(w.next(40 * MS)).isEqualTo(1);
        assertThat(w.next(60 * MS)).isEqualTo(1);
    }

    @Test
    void aLongStallIsCapped() {
        TickWeight w = new TickWeight(20 * MS, 0);
        assertThat(w.next(3_600_000 * MS)).isEqualTo(TickWeight.MAX_INTERVALS);
        assertThat(w.next(3_600_020 * MS)).isEqualTo(1);
    }

    @Test
    void rejectsANonPositiveInterval() {
        assertThatThrownBy(() -> new TickWeight(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
