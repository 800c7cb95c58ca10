package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code idle} parks its threads and measures the process's CPU time over a window after the warm-up. */
class IdleWorkloadIT {
    @TempDir
    Path dir;

    // The workload alone, no profiler: its own code is the subject, run on one JDK.
    @Test
    void measuresProcessCpuOverTheWindow() throws Exception {
        Path jdk = TestJdks.newest();
        ExampleRun run = ExampleRun.run(jdk, dir, "idle", "--threads", "40", "--warmup", "1", "--seconds", "2");
        assertThat(run.number("idle: (\\d+) threads")).isEqualTo(40);
        assertThat(run.number("over (\\d+) ms after 1 s warm-up")).isBetween(2000L, 10_000L);
        // Parked threads and an idle JVM: well under one core over the window.
        assertThat(run.number("process CPU (\\d+) ms over")).isNotNegative().isLessThan(2000);
        assertThat(run.number("footprint: VmHWM (\\d+) kB")).isPositive();
    }
}
