package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PerfEngineCostsTest {

    @Test
    void theSummaryCountsSamplesAndSplitsTheWarmUpFromTheRest() {
        PerfEngineCosts costs = new PerfEngineCosts(1_000L);
        costs.started(0);
        assertThat(costs.summary(0, 0, 0)).isEqualTo("0 samples, 0 lost, 0 dropped, no samples walked");

        costs.walked(0, 10, 20_010, false, 0, 0); // in the warm-up: 20 µs, taken at an unknown time
        for (int i = 0; i < PerfEngineCosts.CPU_TIMED_EVERY; i++) {
            long t0 = 2_000 + i;
            boolean timed = costs.timesCpu(t0);
            // Taken 1 µs before its walk began, but the last, which waited 1 ms.
            long taken = i == PerfEngineCosts.CPU_TIMED_EVERY - 1 ? t0 - 1_000_000 : t0 - 1_000;
            costs.walked(taken, t0, t0 + 5_000, timed, 100, timed ? 3_100 : 100);
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
