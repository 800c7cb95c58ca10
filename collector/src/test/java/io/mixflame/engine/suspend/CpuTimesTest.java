package io.mixflame.engine.suspend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuTimesTest {
    private static final long MS = 1_000_000L;

    @Test
    void growthBelowTheLeastWorthASampleIsKeptForALaterOne() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {7});
        times.leastGrowth(2 * MS);
        times.growth(0, 10 * MS);
        assertThat(times.growth(0, 11 * MS)).as("1 ms: not worth a stop yet").isEqualTo(-1);
        assertThat(times.growth(0, 13 * MS)).as("all it used since its last sample").isEqualTo(3 * MS);
        assertThat(times.growth(0, 14 * MS)).isEqualTo(-1);
    }

    @Test
    void aThreadIsFirstSeenThenWeighedByItsGrowth() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {7});
        assertThat(times.growth(0, 10 * MS)).as("nothing to compare with yet").isEqualTo(-1);
        assertThat(times.growth(0, 13 * MS)).isEqualTo(3 * MS);
        assertThat(times.growth(0, 13 * MS)).isEqualTo(-1);
        assertThat(times.growth(0, -1)).as("a look that failed").isEqualTo(-1);
        assertThat(times.growth(0, 20 * MS)).as("nor is the next compared with it").isEqualTo(-1);
    }

    @Test
    void aQuietThreadIsAskedLessAndLessOftenUntilItRunsAndThenEveryTickAgain() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {7});
        long tick = 0;
        for (int i = 0; i < CpuTimes.QUIET_POLLS; i++) {
            assertThat(times.due(0, ++tick)).isTrue();
            times.growth(0, 5 * MS);
        }
        // The gaps between looks: 2, 4, 8, 16 ticks, then 32 for as long as it stays quiet.
        java.util.List<Long> gaps = new java.util.ArrayList<>();
        long last = tick;
        while (gaps.size() < 8) {
            if (times.due(0, ++tick)) {
                gaps.add(tick - last);
                last = tick;
                times.growth(0, 5 * MS);
            }
        }
        assertThat(gaps.subList(4, 8)).containsOnly((long) CpuTimes.QUIET_MOST_EVERY);
        for (int k = 0; k < 4; k++) {
            assertThat(gaps.get(k)).isLessThanOrEqualTo(2L << k);
        }
        assertThat(times.growth(0, 9 * MS)).as("all it used since the last look").isEqualTo(4 * MS);
        assertThat(times.due(0, ++tick)).isTrue();
        assertThat(times.due(0, ++tick)).isTrue();
    }

    @Test
    void aQuietThreadIsNeverLeftLongerThanTheLongestWait() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {1, 2, 3});
        long last = 0;
        for (long tick = 1; tick < 2_000; tick++) {
            if (times.due(1, tick)) {
                assertThat(tick - last).isLessThanOrEqualTo(CpuTimes.QUIET_MOST_EVERY);
                last = tick;
                times.growth(1, 0);
            }
        }
        assertThat(CpuTimes.every(CpuTimes.QUIET_POLLS + 100)).isEqualTo(CpuTimes.QUIET_MOST_EVERY);
    }

    @Test
    void quietThreadsAreAskedOnDifferentTicks() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {1, 2});
        for (int i = 0; i <= CpuTimes.QUIET_POLLS; i++) {
            times.growth(0, 0);
            times.growth(1, 0);
        }
        for (long tick = 0; tick < CpuTimes.every(CpuTimes.QUIET_POLLS + 1); tick++) {
            assertThat(times.due(0, tick) && times.due(1, tick)).isFalse();
        }
    }

    @Test
    void aNewListingKeepsWhatWasSeenOfTheThreadsStillThere() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {7, 8});
        times.growth(0, 10 * MS);
        for (int i = 0; i <= CpuTimes.QUIET_POLLS; i++) {
            times.growth(1, 50 * MS);
        }
        times.relisted(new int[] {7, 8}, new int[] {9, 8, 7});
        assertThat(times.growth(2, 12 * MS)).as("thread 7, now third").isEqualTo(2 * MS);
        assertThat(times.growth(0, 1 * MS)).as("thread 9, new").isEqualTo(-1);
        assertThat(times.due(1, 1)).as("thread 8, still quiet").isFalse();
    }
}
