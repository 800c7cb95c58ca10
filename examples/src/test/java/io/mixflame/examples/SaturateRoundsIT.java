package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code saturate --rounds N --threads T} does exactly N rounds in all, split among T threads (N not a multiple of
 * T, so the remainder must be handed out), and says how long they took and the process's CPU time.
 */
class SaturateRoundsIT {
    @TempDir
    Path dir;

    // The workload alone, no profiler: its own code is the subject, run on one JDK.
    @Test
    void fixedWorkSplitAmongThreadsReportsItsTimeAndCpu() throws Exception {
        Path jdk = TestJdks.newest();
        ExampleRun run = ExampleRun.run(jdk, dir, "saturate", "--rounds", "301", "--threads", "3");
        assertThat(run.number("saturate: (\\d+) rounds in \\d+ ms on 3 threads")).isEqualTo(301);
        assertThat(run.number("saturate: .*, process CPU (\\d+) ms")).isPositive();
        assertThat(run.number("footprint: VmHWM (\\d+) kB")).isPositive();
    }
}
