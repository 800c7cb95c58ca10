package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PerfEngineCostsTest {

    @Test
    void theSummaryCountsSamplesAndSplitsTheWarmUpFromTheRest() {
        PerfEngineCosts costs = new PerfEngineCosts(1_000L);
        costs.started(0);
        assertThat(costs.summary(0, 0, 0)).isEqualTo("0 samples, 0 lost, 0 dropped, no samples walked");

        costs.walked(0, 1, 10, 20_010, false, 0, 0); // in the warm-up: 20 µs, taken at an unknown time
        for (int i = 0; i < PerfEngineCosts.CPU_TIMED_EVERY; i++) {
            long t0 = 2_000 + i;
            boolean timed = costs.timesCpu(t0);
            // Taken 1 µs before its walk began, but the last, which waited 1 ms.
            long taken = i == PerfEngineCosts.CPU_TIMED_EVERY - 1 ? t0 - 1_000_000 : t0 - 1_000;
            costs.walked(taken, 1, t0, t0 + 5_000, timed, 100, timed ? 3_100 : 100);
        }
        String summary = costs.summary(33, 2, 1);
        assertThat(summary).startsWith("33 samples, 2 lost, 1 dropped, ")
                .contains("; after the first 10 s: 5.0 µs p50 / 5.0 µs p99")
                .contains("(the walker's CPU: 3.0 µs p50 / 3.0 µs p99, one sample in 32 timed)")
                .doesNotContain("drains")
                .as("how long samples waited for the walker, the one of unknown time left out")
                .endsWith("; walked 1.0 µs p50 / 1003.5 µs p99 after they were taken");
        costs.drained(100, 2_100);
        costs.drained(200, 4_200);
        assertThat(costs.summary(33, 2, 1)).as("the sampler's drains")
                .contains("; 2 drains, 2.0 µs p50 / 4.0 µs p99 each; walked");
        assertThat(costs.summary(33, 2, 1)).as("nothing said of clumping while every sample stood for one interval")
                .doesNotContain("standing for");
    }

    @Test
    void samplesStandingForSeveralIntervalsSayHowFarTheCountsClump() {
        PerfEngineCosts costs = new PerfEngineCosts(1_000L);
        costs.started(0);
        // Three samples of 2 intervals and one of 4: 10 intervals, 3 * 4 + 16 = 28 squared, 2.8 on average.
        for (int weight : new int[] {2, 2, 4, 2}) {
            costs.walked(0, weight, 10, 20, false, 0, 0);
        }
        costs.walked(0, 0, 10, 20, false, 0, 0); // the profiler's own: not counted
        assertThat(costs.summary(5, 0, 0))
                .endsWith("; standing for 10 intervals of CPU (at most 4 in one, 2.80 in an interval's sample on average)");
    }

    @Test
    void onlyOneSampleInTheTimedShareAfterTheWarmUpReadsTheCpuClock() {
        PerfEngineCosts costs = new PerfEngineCosts(1_000L);
        costs.started(0);
        int timed = 0;
        for (int i = 0; i < 10 * PerfEngineCosts.CPU_TIMED_EVERY; i++) {
            timed += costs.timesCpu(i < 3 * PerfEngineCosts.CPU_TIMED_EVERY ? 0 : 5_000) ? 1 : 0;
        }
        assertThat(timed).isEqualTo(7);
    }
}
