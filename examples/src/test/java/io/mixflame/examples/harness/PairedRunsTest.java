package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PairedRunsTest {
    private static ChildRun run(Profiler p, int status, long cpuMillis) {
        return new ChildRun(p, List.of("cpu"), Path.of("run"), status, "", "", 1, cpuMillis);
    }

    @Test
    void eachRunIsPairedWithTheBaselineOfItsRepetition() {
        PairedRuns runs = new PairedRuns(Map.of(
                Profiler.NONE, List.of(run(Profiler.NONE, 0, 1000), run(Profiler.NONE, 0, 2000)),
                Profiler.MIXFLAME, List.of(run(Profiler.MIXFLAME, 0, 1500), run(Profiler.MIXFLAME, 0, 2200))));
        Measurements ratios = runs.ratios(Profiler.MIXFLAME, WorkloadRunStats::processCpuMillis);
        assertThat(ratios.min()).hasValue(1.1);
        assertThat(ratios.max()).hasValue(1.5);
        Measurements extra = runs.differences(Profiler.MIXFLAME, WorkloadRunStats::processCpuMillis);
        assertThat(extra.min()).hasValue(200);
        assertThat(extra.max()).hasValue(500);
    }

    @Test
    void aFailedRunOnEitherSideLeavesItsRepetitionOut() {
        PairedRuns runs = new PairedRuns(Map.of(
                Profiler.NONE, List.of(run(Profiler.NONE, 1, 1000), run(Profiler.NONE, 0, 2000)),
                Profiler.ASYNC_PROFILER, List.of(run(Profiler.ASYNC_PROFILER, 0, 1500),
                        run(Profiler.ASYNC_PROFILER, 0, 3000))));
        assertThat(runs.differences(Profiler.ASYNC_PROFILER, WorkloadRunStats::processCpuMillis).count()).isEqualTo(1);
        assertThat(runs.values(Profiler.NONE, WorkloadRunStats::processCpuMillis).count()).isEqualTo(1);
        assertThat(runs.ratios(Profiler.JFR, WorkloadRunStats::processCpuMillis).count()).as("no runs").isZero();
    }
}
