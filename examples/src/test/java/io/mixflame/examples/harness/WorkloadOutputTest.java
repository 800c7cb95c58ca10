package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The lines the cpu and saturate workloads print, as they print them. */
class WorkloadOutputTest {
    private static final String CPU_ROUNDS = "cpu: 15612 rounds in 6021 ms, 6010 ms of CPU time (alpha:beta:gamma = 5:3:2)\n"
            + "footprint: VmHWM 45000 kB, process CPU 6400 ms\n";
    private static final String SATURATE_ROUNDS = "saturate: 100000 rounds in 9322 ms on 2 threads, process CPU 8970 ms\n"
            + "footprint: VmHWM 480928 kB, process CPU 11590 ms, live heap 4321 kB\n";

    @Test
    void workTimeOfTheNamedWorkloadOnly() {
        assertThat(WorkloadOutput.workMillis("cpu", CPU_ROUNDS)).hasValue(6021);
        assertThat(WorkloadOutput.workMillis("saturate", SATURATE_ROUNDS)).hasValue(9322);
        assertThat(WorkloadOutput.workMillis("saturate", CPU_ROUNDS)).isEmpty();
    }

    @Test
    void roundsPerSecondOfTimedRunsOnly() {
        assertThat(WorkloadOutput.roundsPerSecond("saturate",
                "saturate: 61246 rounds in 2 s on 2 threads, process CPU 3900 ms\n")).hasValue(30623);
        assertThat(WorkloadOutput.roundsPerSecond("cpu", "cpu: 5000 rounds in 2 s, 1990 ms of CPU time\n"))
                .hasValue(2500);
        assertThat(WorkloadOutput.roundsPerSecond("saturate", SATURATE_ROUNDS)).as("a --rounds run says ms").isEmpty();
    }

    @Test
    void busyThreadsAndPeakRss() {
        assertThat(WorkloadOutput.busyThreads(SATURATE_ROUNDS)).hasValue(2);
        assertThat(WorkloadOutput.peakRssKb(SATURATE_ROUNDS)).hasValue(480928);
    }

    @Test
    void liveHeapWhereTheFootprintLineHasIt() {
        assertThat(WorkloadOutput.liveHeapKb(SATURATE_ROUNDS)).hasValue(4321);
        assertThat(WorkloadOutput.liveHeapKb(CPU_ROUNDS)).as("an older line without it").isEmpty();
        assertThat(WorkloadOutput.roundsPerSecond("rocks", "rocks: 5000 rounds in 20 s\n")).hasValue(250);
    }
}
