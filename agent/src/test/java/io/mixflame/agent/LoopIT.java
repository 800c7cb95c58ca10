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

    /** keep= counts periods: with two events, the last two periods keep a file of each. */
    @Test
    void keepCountsPeriodsOfSeveralEvents() throws Exception {
        try (ChildJvm app = ChildJvm.start(TestJdks.all().get(0), dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,event=cpu,lock,loop=1s,keep=2,file="
                        + dir.resolve("period-%e-%t.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.ContendedApp", "5"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            assertThat(app.stderr().lines().filter(l -> l.contains("period ended"))).hasSizeGreaterThanOrEqualTo(3);
        }
        List<String> kept;
        try (Stream<Path> files = Files.list(dir)) {
            kept = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("period-")).toList();
        }
        assertThat(kept).as("files kept").hasSize(4);
        assertThat(kept.stream().filter(n -> n.startsWith("period-cpu-"))).hasSize(2);
        assertThat(kept.stream().filter(n -> n.startsWith("period-lock-"))).hasSize(2);
    }

    /**
     * Periods end on the second: the last period and the one written at exit can fall in the same one. The file is
     * named as flamegraph.pl's users name theirs ({@code .folded}): each period's stamp goes before the extension.
     */
    @Test
    void noPeriodIsLostWhenTwoEndInTheSameSecond() throws Exception {
        try (ChildJvm app = ChildJvm.start(TestJdks.all().get(0), dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,loop=1s,keep=100,file=" + dir.resolve("l.folded"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "3"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            List<String> writes = app.stderr().lines()
                    .filter(l -> l.contains("period ended") || l.contains("written at exit")).toList();
            long said = writes.stream().mapToLong(LoopIT::samplesSaid).sum();
            List<Path> files;
            try (Stream<Path> listed = Files.list(dir)) {
                files = listed.filter(p -> p.getFileName().toString().startsWith("l-")).toList();
            }
            for (Path p : files) {
                assertThat(p.getFileName().toString()).matches("l-\\d{8}-\\d{6}(-\\d+)?\\.folded");
            }
            assertThat(files).as(writes.toString()).hasSize(writes.size());
            long onDisk = 0;
            for (Path p : files) {
                onDisk += Files.readAllLines(p, StandardCharsets.UTF_8).stream()
                        .filter(l -> !l.startsWith("#") && !l.isBlank())
                        .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
            }
            assertThat(said).isGreaterThan(100);
            assertThat(onDisk).isEqualTo(said);
        }
    }

    /** The sample count of a {@code period ended: N samples written to …} line. */
    private static long samplesSaid(String line) {
        String after = line.substring(line.indexOf(": ") + 2);
        return Long.parseLong(after.substring(0, after.indexOf(' ')));
    }
}
