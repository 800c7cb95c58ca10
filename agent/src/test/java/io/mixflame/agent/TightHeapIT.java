package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A service that runs in its {@code -Xmx} without a profiler runs in it with mixflame: 48 MB kept alive and churned
 * in a 64 MB heap, profiled to the end at 1 ms and at 10 ms. The 48 MB lie above what a profiler keeping its tables
 * on the Java heap leaves the service (one broke it from 46 MB) and below where mixflame breaks it (56 MB; without a
 * profiler the service runs to 58 MB here). First without a profiler, so that a machine where even that fails says
 * so rather than blaming the profiler.
 */
class TightHeapIT {
    private static final List<String> HEAP = List.of("-Xmx64m", "-XX:+UseG1GC");

    @TempDir
    Path dir;

    /** The heap the profiler takes is its own code's, not the JVM's: each interval once, the JDKs in turn. */
    static Stream<Arguments> runs() {
        return TestJdks.spread("1ms", "10ms");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void theServiceRunsToTheEndInItsHeap(Path jdk, String interval) throws Exception {
        assertThat(run(jdk, List.of())).as("without a profiler").contains("done");
        String stderr = run(jdk, List.of("-javaagent:" + BuiltJars.agent() + "=start,interval=" + interval
                + ",file=" + dir.resolve("tight.collapsed")));
        assertThat(stderr).as("the profiler's threads' own errors").doesNotContain("Exception in thread");
        assertThat(dir.resolve("tight.collapsed")).exists();
    }

    /** Runs the app to its end and returns its output and errors; fails unless it exited with 0. */
    private String run(Path jdk, List<String> profiler) throws Exception {
        List<String> args = new java.util.ArrayList<>(HEAP);
        args.addAll(profiler);
        args.addAll(List.of("-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.TightHeapApp", "6", "48"));
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as("exit status with %s; stderr:%n%s", profiler,
                    app.stderr()).isZero();
            assertThat(app.stdout()).contains("done");
            return app.stdout() + app.stderr();
        }
    }
}
