package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end, short: {@code --quick --repetitions 1} exits with 0 (no run failed) and writes a report
 * whose tables have a row for every profiler, the 1 ms study's for none, async-profiler and mixflame, and the thread
 * study's for every group of threads; and the studies run alone with {@code --only}, each quick. The four harnesses
 * run at once, each in a folder of its own: most of their time is workloads that run for a set time, and what is
 * checked here is what they report, not their figures.
 */
class HarnessSmokeIT {
    @TempDir
    static Path dir;
    private static final List<ChildJvm> STARTED = new ArrayList<>();
    private static ChildJvm quick;
    private static ChildJvm cost;
    private static ChildJvm allocLock;
    private static ChildJvm labels;

    @BeforeAll
    static void startEveryHarness() throws Exception {
        Path benchmarks = dir.resolve("BENCHMARKS.md");
        Files.writeString(benchmarks, "# Benchmarks\n\nkept\n\n" + MarkedSection.BEGIN + "\nstale\n" + MarkedSection.END
                + "\n\n## After\nkept too\n");
        quick = harness("quick", "--quick", "--repetitions", "1", "--out", dir.resolve("section.md").toString(),
                "--benchmarks", benchmarks.toString());
        cost = harness("cost", "--only", "cost", "--quick", "--out", dir.resolve("cost.md").toString());
        allocLock = harness("alloclock", "--only", "alloclock", "--quick", "--out",
                dir.resolve("alloclock.md").toString());
        labels = harness("labels", "--only", "labels", "--quick", "--out", dir.resolve("labels.md").toString());
    }

    @AfterAll
    static void stopEveryHarness() {
        for (ChildJvm harness : STARTED) {
            harness.close();
        }
    }

    /** Starts the harness with {@code args}, its work and output in a folder {@code name} of its own. */
    private static ChildJvm harness(String name, String... args) throws Exception {
        Path own = Files.createDirectories(dir.resolve(name));
        List<String> command = new ArrayList<>(List.of("-cp", BuiltJars.examples().toString(), Harness.class.getName(),
                "--work", own.resolve("work").toString()));
        command.addAll(List.of(args));
        ChildJvm started = ChildJvm.start(Path.of(System.getProperty("java.home")), own, command);
        STARTED.add(started);
        return started;
    }

    private static void assertExitedWithZero(ChildJvm harness) throws Exception {
        assertThat(harness.awaitExit(Duration.ofMinutes(15))).as("exit status; stderr:\n%s", harness.stderr()).isZero();
    }

    @Test
    void quickRunReportsEveryProfiler() throws Exception {
        assertExitedWithZero(quick);
        Path out = dir.resolve("section.md");
        Path benchmarks = dir.resolve("BENCHMARKS.md");
        String report = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(report).contains("### Overhead: `cpu --rounds", "### Overhead under saturation: `saturate --rounds",
                "### Overhead: `service --load", "### Accuracy: `cpu`", "### Native frames: `mixed",
                "### Wall clock: `idle", "### Sampling every 1 ms", "#### `saturate --rounds",
                "### Where mixflame's CPU goes: `saturate --rounds", "### A real JNI library: `rocks --seconds",
                "### Against the targets");
        assertThat(Files.readString(benchmarks, StandardCharsets.UTF_8)).as("BENCHMARKS.md with the section replaced")
                .isEqualTo("# Benchmarks\n\nkept\n\n" + MarkedSection.BEGIN + "\n" + report + MarkedSection.END
                        + "\n\n## After\nkept too\n");
        List<String> rows = report.lines().filter(l -> l.startsWith("| ")).toList();
        // The three overhead tables and the mixed table list all four, the shares table the three profilers, the
        // wall table all but JFR, the 1 ms table (saturate only when quick) all but JFR, the JNI table all but JFR.
        List<String> baseline = rows.stream().filter(l -> l.startsWith("| none |")).toList();
        assertThat(baseline).hasSize(7);
        assertThat(rows.stream().filter(l -> l.startsWith("| async-profiler "))).hasSize(8);
        assertThat(rows.stream().filter(l -> l.startsWith("| JFR |"))).hasSize(5);
        assertThat(rows.stream().filter(l -> l.startsWith("| mixflame (engine="))).hasSize(8);
        // The JNI table: RocksDB's threads seen, and the calling thread's library samples counted.
        assertThat(rows).anyMatch(l -> l.startsWith("| mixflame (engine=")
                && l.matches(".*\\| \\d+\\.\\d\\d% of [1-9]\\d* \\|.*"));
        // The fixed-work tables end with the live heap at exit, in tenths of a megabyte.
        assertThat(baseline.stream().filter(l -> l.matches(".* \\d+\\.\\d MB \\|$"))).hasSizeGreaterThanOrEqualTo(2);
        assertThat(rows).anyMatch(l -> l.startsWith("| `idle`: wall clock, 500 idle threads"));
        assertThat(rows).noneMatch(l -> l.startsWith("| mixflame (engine=?)"));
        // Peak RSS for every workload, and process CPU in seconds for all but the wall-clock table's (a share of one
        // core there).
        assertThat(baseline).allMatch(l -> l.matches(".* \\d+ MB .*"));
        assertThat(baseline.stream().filter(l -> l.matches(".* \\d+\\.\\d s .*"))).hasSize(5);
        // async-profiler's thread profile read: the groups, and samples in all of them together.
        assertThat(rows).anyMatch(l -> l.startsWith("| `mixflame-perf-walker` | "))
                .anyMatch(l -> l.startsWith("| JIT compiler threads "))
                .anyMatch(l -> l.matches("\\| all sampled threads \\| [1-9]\\d* \\| .*"));
        assertThat(rows).anyMatch(l -> l.startsWith("| `saturate --rounds`: cost at 10 ms within 1 pp of async-profiler's"))
                .anyMatch(l -> l.startsWith("| `saturate --rounds`: extra process CPU"))
                .anyMatch(l -> l.startsWith("| `saturate --rounds`: peak RSS"));
        if (report.contains("mixflame (engine=perf)")) {
            // The perf engine's note has its counts: the share of the samples lost or dropped is a number.
            assertThat(rows).anyMatch(l -> l.matches(
                    "\\| `saturate` at 1 ms: under 1% of samples lost or dropped \\| \\d+\\.\\d\\d% \\(\\d+ of \\d+\\) .*"));
        }
    }

    @Test
    void quickCostStudyReportsEveryProfilerAndTheTargets() throws Exception {
        assertExitedWithZero(cost);
        Path out = dir.resolve("cost.md");
        String report = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(report).contains("#### Short job: `saturate --threads 1 --rounds ", "#### Saturated: `saturate --rounds ",
                "#### Steady state: `saturate --seconds 3 --window 1`", "#### Against the cost targets");
        List<String> rows = report.lines().filter(l -> l.startsWith("| ")).toList();
        // Three tables of every profiler, each row with a figure, peak RSS, live heap and the JIT's compilations.
        String figures = ".* \\| 1 \\| \\d+( ms)? \\|.* \\| \\d+ MB \\| \\d+\\.\\d MB \\| \\d+.* \\| \\d+\\.\\d\\d s.* \\|$";
        for (String profiler : List.of("| none |", "| async-profiler ", "| JFR |", "| mixflame (engine=")) {
            assertThat(rows.stream().filter(l -> l.startsWith(profiler))).as(profiler).hasSize(3).allMatch(
                    l -> l.matches(figures));
        }
        // The targets: every one measured (a ratio, megabytes, a count or seconds), none left as a dash.
        List<String> targets = rows.stream().filter(l -> l.matches("\\| [a-z].*\\| (yes|no) \\|")).toList();
        assertThat(targets).hasSize(7);
        assertThat(rows).anyMatch(l -> l.matches("\\| saturated: at most 150 compilations beyond none's \\| [+-]\\d+ .*"));
    }

    @Test
    void quickAllocLockStudyReportsEveryProfiler() throws Exception {
        assertExitedWithZero(allocLock);
        Path out = dir.resolve("alloclock.md");
        String report = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(report).contains("## What allocation and lock profiling cost",
                "### Allocation and lock profiling: `alloc` and `lock --seconds 1`");
        List<String> rows = report.lines().filter(l -> l.startsWith("| `")).toList();
        for (String profiler : List.of("| none |", "| async-profiler ", "| JFR |", "| mixflame (engine=jfr)")) {
            // alloc: arrays per CPU second (a ratio beside none's), process CPU, peak RSS; lock: process CPU, RSS.
            assertThat(rows.stream().filter(l -> l.contains("allocation profiling " + profiler)))
                    .as("alloc " + profiler).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .matches(".* \\| \\d+( \\(\\d\\.\\d{3}\\))? \\| \\d+\\.\\d s \\| \\d+ MB \\|$");
            assertThat(rows.stream().filter(l -> l.contains("lock profiling " + profiler)))
                    .as("lock " + profiler).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .matches(".* \\|  \\| \\d+\\.\\d s( \\(\\d\\.\\d{3}\\))? \\| \\d+ MB \\|$");
        }
    }

    @Test
    void quickLabelsStudyReportsTheServiceWithAndWithoutLabels() throws Exception {
        assertExitedWithZero(labels);
        Path out = dir.resolve("labels.md");
        String report = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(report).contains("## What labels cost",
                "### `service --load --seconds 2 --threads 8` with and without `labels`",
                "Samples of the runs with `labels` by endpoint: `[endpoint=/cpu]` ");
        List<String> rows = report.lines().filter(l -> l.startsWith("| ")).toList();
        assertThat(rows).anyMatch(l -> l.matches("\\| none \\| 1 \\| \\d+ \\|  \\|  \\|  \\|"));
        // Without labels no sample carries an endpoint; with them some do: the labels were on, and only there.
        assertThat(rows.stream().filter(l -> l.startsWith("| mixflame (engine=") && !l.contains("`labels`")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .matches(".* \\| 1 \\| \\d+ \\| \\d\\.\\d{3} \\|  \\| 0\\.0% of [1-9]\\d* \\|");
        assertThat(rows.stream().filter(l -> l.startsWith("| mixflame (engine=") && l.contains(" + `labels` |")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .matches(".* \\| 1 \\| \\d+ \\| \\d\\.\\d{3} \\| \\d\\.\\d{3} \\| \\d+\\.\\d% of [1-9]\\d* \\|")
                .doesNotContain("| 0.0% of");
        assertThat(rows).anyMatch(l -> l.matches("\\| `labels` costs the service .* \\| \\d\\.\\d{3} \\| (yes|no) \\|"));
    }
}
