package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end, short: {@code --quick --repetitions 1} exits with 0 (no run failed) and writes a report
 * whose tables have a row for every profiler.
 */
class HarnessSmokeIT {
    @TempDir
    Path dir;

    @Test
    void quickRunReportsEveryProfiler() throws Exception {
        Path out = dir.resolve("section.md");
        Path benchmarks = dir.resolve("BENCHMARKS.md");
        Files.writeString(benchmarks, "# Benchmarks\n\nkept\n\n" + MarkedSection.BEGIN + "\nstale\n" + MarkedSection.END
                + "\n\n## After\nkept too\n");
        try (ChildJvm harness = ChildJvm.start(Path.of(System.getProperty("java.home")), dir, List.of(
                "-cp", BuiltJars.examples().toString(), Harness.class.getName(), "--quick", "--repetitions", "1",
                "--work", dir.resolve("work").toString(), "--out", out.toString(), "--benchmarks", benchmarks.toString()))) {
            assertThat(harness.awaitExit(Duration.ofMinutes(10))).as("exit status; stderr:\n%s", harness.stderr())
                    .isZero();
        }
        String report = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(report).contains("### Overhead: `cpu --rounds", "### Overhead: `service --load",
                "### Accuracy: `cpu`", "### Native frames: `mixed", "### Wall clock: `idle", "### Against the targets");
        assertThat(Files.readString(benchmarks, StandardCharsets.UTF_8)).as("BENCHMARKS.md with the section replaced")
                .isEqualTo("# Benchmarks\n\nkept\n\n" + MarkedSection.BEGIN + "\n" + report + MarkedSection.END
                        + "\n\n## After\nkept too\n");
        List<String> rows = report.lines().filter(l -> l.startsWith("| ")).toList();
        // Both overhead tables list all four, the accuracy tables the three profilers, the wall table all but JFR.
        assertThat(rows.stream().filter(l -> l.startsWith("| none |"))).hasSize(3);
        assertThat(rows.stream().filter(l -> l.startsWith("| async-profiler "))).hasSize(5);
        assertThat(rows.stream().filter(l -> l.startsWith("| JFR |"))).hasSize(4);
        assertThat(rows.stream().filter(l -> l.startsWith("| mixflame (engine="))).hasSize(5);
        assertThat(rows).anyMatch(l -> l.startsWith("| `idle`: wall clock, 500 idle threads"));
        assertThat(rows).noneMatch(l -> l.startsWith("| mixflame (engine=?)"));
    }
}
