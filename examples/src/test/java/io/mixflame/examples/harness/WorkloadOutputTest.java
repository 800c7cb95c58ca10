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
    void arraysAndProcessCpuOfTheAllocWorkload() {
        String alloc = "alloc: done 1148000 arrays\nfootprint: VmHWM 1008536 kB, process CPU 5290 ms, live heap 9064 kB\n";
        assertThat(WorkloadOutput.arrays(alloc)).hasValue(1148000);
        assertThat(WorkloadOutput.processCpuMillis(alloc)).hasValue(5290);
        assertThat(WorkloadOutput.processCpuMillis(CPU_ROUNDS)).hasValue(6400);
        assertThat(WorkloadOutput.arrays(CPU_ROUNDS)).isEmpty();
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

    @Test
    void steadyThroughputCountsOnlyTheWindowsAfterTheWarmUp() {
        String run = "saturate: window 1: 9000 rounds in 10 s\nsaturate: window 2: 20000 rounds in 10 s\n"
                + "saturate: window 3: 22000 rounds in 10 s\nsaturate: window 4: 24000 rounds in 10 s\n"
                + "saturate: 75000 rounds in 40 s on 2 threads, process CPU 79000 ms\n";
        assertThat(WorkloadOutput.steadyRoundsPerSecond(run, 20)).hasValue(2300);
        assertThat(WorkloadOutput.steadyRoundsPerSecond(run, 0)).hasValue(75000 / 40.0);
        assertThat(WorkloadOutput.steadyRoundsPerSecond(run, 40)).as("no window after 40 s").isEmpty();
        assertThat(WorkloadOutput.windowRounds(run)).containsExactly(9000, 20000, 22000, 24000);
    }

    @Test
    void compilationsAndCompileTimeOfBothCompilersFromCiTime() {
        // As JDK 17 and 25 print it at exit with -XX:+CITime (other lines of its block left out).
        String ciTime = "  C1 {speed: 301989.727 bytes/s; standard:  0.100 s, 30420 bytes, 369 methods; osr:  0.002 s,"
                + " 395 bytes, 4 methods; nmethods_size: 553568 bytes; nmethods_code_size: 392800 bytes}\n"
                + "  C2 {speed: 35483.842 bytes/s; standard:  0.135 s, 4655 bytes, 55 methods; osr:  0.020 s, 845 bytes,"
                + " 3 methods; nmethods_size: 45456 bytes; nmethods_code_size: 28352 bytes}\n"
                + "  Tier1 {speed: 72901.170 bytes/s; standard:  0.003 s, 209 bytes, 43 methods; osr:  0.000 s, 0 bytes,"
                + " 0 methods; nmethods_size: 10664 bytes; nmethods_code_size: 6880 bytes}\n";
        assertThat(WorkloadOutput.jitCompilations(SATURATE_ROUNDS + ciTime)).hasValue(369 + 4 + 55 + 3);
        assertThat(WorkloadOutput.jitSeconds(SATURATE_ROUNDS + ciTime).getAsDouble()).isCloseTo(0.257,
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(WorkloadOutput.jitCompilations(SATURATE_ROUNDS)).as("a run without -XX:+CITime").isEmpty();
    }
}
