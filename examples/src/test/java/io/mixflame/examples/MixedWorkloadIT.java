package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mixed} runs its three phases and each does real work: zlib round trips, qsort with the Java comparator
 * called back from C, memcmp calls.
 */
class MixedWorkloadIT {
    @TempDir
    Path dir;

    // The workload alone, no profiler: its own code is the subject, run on one JDK.
    @Test
    void everyPhaseWorksAndTheCallbackRuns() throws Exception {
        Path jdk = TestJdks.running();
        ExampleRun run = ExampleRun.run(jdk, dir, "mixed", "--seconds", "3");
        assertThat(run.number("mixed: zlib: (\\d+) buffers")).isPositive();
        assertThat(run.number("mixed: qsort: (\\d+) sorts")).isPositive();
        assertThat(run.number("(\\d+) comparator callbacks from C into Java")).isPositive();
        assertThat(run.number("mixed: memcmp: (\\d+) libc memcmp calls")).isPositive();
        assertThat(run.number("mixed: 3 s, (\\d+) callbacks")).isPositive();
        assertThat(run.number("(\\d+) ms of CPU time")).isPositive();
        assertThat(run.number("footprint: VmHWM (\\d+) kB")).isPositive();
    }
}
