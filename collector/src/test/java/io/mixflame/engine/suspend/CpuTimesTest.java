package io.mixflame.engine.suspend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CpuTimesTest {
    private static final long MS = 1_000_000L;

    @Test
    void lessThanAnIntervalIsCarriedToTheThreadsNextSample() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {7});
        times.interval(2 * MS);
        times.intervals(0, 10 * MS);
        assertThat(times.intervals(0, 11 * MS)).as("1 ms: not worth a stop yet").isZero();
        assertThat(times.intervals(0, 13 * MS)).as("3 ms since its first look: one interval, 1 ms left").isEqualTo(1);
        assertThat(times.intervals(0, 14 * MS)).as("the 1 ms left and 1 ms more").isEqualTo(1);
        assertThat(times.intervals(0, 15 * MS)).isZero();
        assertThat(times.intervals(0, 22 * MS)).as("8 ms: whole intervals all counted at once").isEqualTo(4);
    }

    @Test
    void aThreadIsFirstSeenThenCountedInWholeIntervals() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {7});
        times.interval(MS);
        assertThat(times.intervals(0, 10 * MS)).as("nothing to compare with yet").isZero();
        assertThat(times.intervals(0, 13 * MS)).isEqualTo(3);
        assertThat(times.intervals(0, 13 * MS)).isZero();
        assertThat(times.intervals(0, -1)).as("a look that failed").isZero();
        assertThat(times.intervals(0, 20 * MS)).as("nor is the next compared with it").isZero();
        assertThat(times.intervals(0, 21 * MS)).isEqualTo(1);
    }

    /**
     * Over many ticks, each thread's samples count the CPU it used in whole intervals: a thread busy all the time is
     * counted four times as often as one busy a quarter of it, and no thread is counted for more than it used, nor
     * for an interval less, counting from its first look to its last (a quiet thread is looked at every few ticks).
     */
    @Test
    void countsFollowTheCpuEachThreadUsed() {
        long interval = 10 * MS;
        // Per tick: a whole interval, a quarter, one and a half, a tenth (a thread asked less often), a third.
        long[] perTick = {interval, interval / 4, interval * 3 / 2, interval / 10, interval / 3};
        CpuTimes times = new CpuTimes();
        times.interval(interval);
        times.relisted(new int[0], new int[] {1, 2, 3, 4, 5});
        long[] counts = new long[perTick.length];
        long[] first = new long[perTick.length];
        long[] lastLook = new long[perTick.length];
        Arrays.fill(first, -1);
        int ticks = 4_000;
        for (long tick = 1; tick <= ticks; tick++) {
            for (int i = 0; i < perTick.length; i++) {
                if (!times.due(i, tick)) {
                    continue;
                }
                long used = 1_000 * MS + tick * perTick[i];
                long n = times.intervals(i, used);
                assertThat(n).isNotNegative();
                counts[i] += n;
                if (first[i] < 0) {
                    first[i] = used;
                }
                lastLook[i] = used;
            }
        }
        for (int i = 0; i < perTick.length; i++) {
            assertThat(counts[i]).as("intervals counted for thread %d", i + 1)
                    .isEqualTo((lastLook[i] - first[i]) / interval);
        }
        assertThat(counts[0]).as("a whole interval a tick").isEqualTo(ticks - 1);
        assertThat(counts[0]).as("four times the quarter's").isBetween(4 * counts[1], 4 * counts[1] + 3);
        assertThat(counts[3]).as("a tenth, though asked less often").isBetween(ticks / 10 - 4L, ticks / 10L);
    }

    @Test
    void aQuietThreadIsAskedLessAndLessOftenUntilItRunsAndThenEveryTickAgain() {
        CpuTimes times = new CpuTimes();
        times.interval(MS);
        times.relisted(new int[0], new int[] {7});
        long tick = 0;
        for (int i = 0; i < CpuTimes.QUIET_POLLS; i++) {
            assertThat(times.due(0, ++tick)).isTrue();
            times.intervals(0, 5 * MS);
        }
        // The gaps between looks: 2, 4, 8, 16 ticks, then 32 for as long as it stays quiet.
        java.util.List<Long> gaps = new java.util.ArrayList<>();
        long last = tick;
        while (gaps.size() < 8) {
            if (times.due(0, ++tick)) {
                gaps.add(tick - last);
                last = tick;
                times.intervals(0, 5 * MS);
            }
        }
        assertThat(gaps.subList(4, 8)).containsOnly((long) CpuTimes.QUIET_MOST_EVERY);
        for (int k = 0; k < 4; k++) {
            assertThat(gaps.get(k)).isLessThanOrEqualTo(2L << k);
        }
        assertThat(times.intervals(0, 9 * MS)).as("all it used since the last look").isEqualTo(4);
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
                times.intervals(1, 0);
            }
        }
        assertThat(CpuTimes.every(CpuTimes.QUIET_POLLS + 100)).isEqualTo(CpuTimes.QUIET_MOST_EVERY);
    }

    @Test
    void quietThreadsAreAskedOnDifferentTicks() {
        CpuTimes times = new CpuTimes();
        times.relisted(new int[0], new int[] {1, 2});
        for (int i = 0; i <= CpuTimes.QUIET_POLLS; i++) {
            times.intervals(0, 0);
            times.intervals(1, 0);
        }
        for (long tick = 0; tick < CpuTimes.every(CpuTimes.QUIET_POLLS + 1); tick++) {
            assertThat(times.due(0, tick) && times.due(1, tick)).isFalse();
        }
    }

    @Test
    void aNewListingKeepsWhatWasSeenOfTheThreadsStillThere() {
        CpuTimes times = new CpuTimes();
        times.interval(2 * MS);
        times.relisted(new int[0], new int[] {7, 8});
        times.intervals(0, 10 * MS);
        assertThat(times.intervals(0, 13 * MS)).isEqualTo(1);
        for (int i = 0; i <= CpuTimes.QUIET_POLLS; i++) {
            times.intervals(1, 50 * MS);
        }
        times.relisted(new int[] {7, 8}, new int[] {9, 8, 7});
        assertThat(times.intervals(2, 16 * MS)).as("thread 7, now third: the 1 ms left and 3 ms more").isEqualTo(2);
        assertThat(times.intervals(0, 1 * MS)).as("thread 9, new").isZero();
        assertThat(times.due(1, 1)).as("thread 8, still quiet").isFalse();
    }
}
