package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code churn} starts threads, unloads the classes it defined, and deoptimizes, by the JVM's own counts. */
class ChurnWorkloadIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void threadsStartClassesUnloadCodeDeoptimizes(Path jdk) throws Exception {
        ExampleRun run = ExampleRun.run(jdk, dir, "churn", "--seconds", "3");
        assertThat(run.number("churn: (\\d+) threads started")).isPositive();
        assertThat(run.number("ThreadMXBean: (\\d+) started")).isPositive();
        long defined = run.number("(\\d+) payload classes defined");
        long unloaded = run.number("(\\d+) classes unloaded \\(ClassLoadingMXBean\\)");
        assertThat(unloaded).as("classes unloaded").isPositive();
        assertThat(defined).as("payload classes defined").isPositive();
        assertThat(run.number("churn: (\\d+) deoptimizations")).isPositive();
    }
}
