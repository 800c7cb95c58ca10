package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpu --rounds N} does the given rounds and says how long they took, then prints its footprint. */
class CpuRoundsIT {
    @TempDir
    Path dir;

    // The workload alone, no profiler: its own code is the subject, run on one JDK.
    @Test
    void fixedWorkReportsItsTime() throws Exception {
        Path jdk = TestJdks.running();
        ExampleRun run = ExampleRun.run(jdk, dir, "cpu", "--rounds", "500");
        assertThat(run.number("cpu: (\\d+) rounds in \\d+ ms")).isEqualTo(500);
        assertThat(run.number("rounds in (\\d+) ms")).isPositive();
        assertThat(run.number("(\\d+) ms of CPU time")).isPositive();
        assertThat(run.number("footprint: VmHWM (\\d+) kB")).isPositive();
    }
}
