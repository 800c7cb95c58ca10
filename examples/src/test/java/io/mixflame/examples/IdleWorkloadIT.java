package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code idle} parks its threads and measures the process's CPU time over a window after the warm-up. */
class IdleWorkloadIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void measuresProcessCpuOverTheWindow(Path jdk) throws Exception {
        ExampleRun run = ExampleRun.run(jdk, dir, "idle", "--threads", "40", "--warmup", "1", "--seconds", "2");
        assertThat(run.number("idle: (\\d+) threads")).isEqualTo(40);
        assertThat(run.number("over (\\d+) ms after 1 s warm-up")).isBetween(2000L, 10_000L);
        // Parked threads and an idle JVM: well under one core over the window.
        assertThat(run.number("process CPU (\\d+) ms over")).isNotNegative().isLessThan(2000);
        assertThat(run.number("footprint: VmHWM (\\d+) kB")).isPositive();
    }
}
