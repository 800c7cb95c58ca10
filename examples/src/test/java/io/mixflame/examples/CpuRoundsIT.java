package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code cpu --rounds N} does the given rounds and says how long they took, then prints its footprint. */
class CpuRoundsIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void fixedWorkReportsItsTime(Path jdk) throws Exception {
        ExampleRun run = ExampleRun.run(jdk, dir, "cpu", "--rounds", "500");
        assertThat(run.number("cpu: (\\d+) rounds in \\d+ ms")).isEqualTo(500);
        assertThat(run.number("rounds in (\\d+) ms")).isPositive();
        assertThat(run.number("(\\d+) ms of CPU time")).isPositive();
        assertThat(run.number("footprint: VmHWM (\\d+) kB")).isPositive();
    }
}
