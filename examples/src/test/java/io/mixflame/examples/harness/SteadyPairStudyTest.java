package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyPairStudyTest {
    private static final CostStudy.SteadyState STEADY = new CostStudy.SteadyState(30, 10, 10);

    /** A run whose windows after the first did {@code rounds} rounds in 10 s each. */
    private static ChildRun run(Profiler p, int status, long rounds) {
        String stdout = "saturate: window 1: 1 rounds in 10 s\n"
                + "saturate: window 2: " + rounds + " rounds in 10 s\n"
                + "saturate: window 3: " + rounds + " rounds in 10 s\n";
        return new ChildRun(p, STEADY.command(), Path.of("."), status, stdout, "", 0, 0);
    }

    @Test
    void eachPairsRatioIsMixflamesRateOverAsyncProfilersAndTheMeanIsGeometric() {
        SteadyPairStudy study = new SteadyPairStudy(STEADY, List.of(
                new ChildRun[] {run(Profiler.ASYNC_PROFILER, 0, 1000), run(Profiler.MIXFLAME, 0, 500)},
                new ChildRun[] {run(Profiler.ASYNC_PROFILER, 0, 1000), run(Profiler.MIXFLAME, 0, 2000)},
                new ChildRun[] {run(Profiler.ASYNC_PROFILER, 1, 1000), run(Profiler.MIXFLAME, 0, 9000)}));
        assertThat(study.rate(study.pairs().get(0)[0])).hasValue(100.0);
        assertThat(study.ratios()).as("the failed run's pair left out").containsExactly(0.5, 2.0);
        assertThat(study.geometricMean()).isCloseTo(1.0, within(1e-9));
        String report = new SteadyPairSection(study).markdown();
        assertThat(report).contains("| 1 | async-profiler | 100 | 50 | 0.500 |")
                .contains("| 2 | mixflame | 100 | 200 | 2.000 |")
                .contains("| 3 | async-profiler | — | 900 | — |")
                .contains("Geometric mean of the ratios: 1.000 (meets the target of 0.99)");
    }
}
