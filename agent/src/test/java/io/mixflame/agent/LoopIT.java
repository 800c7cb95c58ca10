package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loop=1s,keep=2}: a new profile every second, only the last two kept on disk. */
class LoopIT {
    @TempDir
    Path dir;

    @Test
    void loopWritesAProfilePerPeriodAndKeepsTheLastFew() throws Exception {
        try (ChildJvm app = ChildJvm.start(TestJdks.all().get(0), dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,loop=1s,keep=2,file=" + dir.resolve("period-%t.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "5"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            assertThat(app.stderr().lines().filter(l -> l.contains("period ended"))).hasSizeGreaterThanOrEqualTo(3);
        }
        List<Path> kept;
        try (Stream<Path> files = Files.list(dir)) {
            kept = files.filter(p -> p.getFileName().toString().startsWith("period-")).toList();
        }
        assertThat(kept).hasSize(2);
        for (Path p : kept) {
            assertThat(Files.readString(p, StandardCharsets.UTF_8)).startsWith("# mixflame engine=perf");
        }
    }
}
