package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.examples.harness.ProfilerFiles;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * That mixflame's text outputs read like async-profiler's: the {@code cpu} example profiled once
 * by the real async-profiler (from Maven Central's {@code tools.profiler:async-profiler}) and once by mixflame, both
 * writing collapsed stacks with their defaults.
 */
class AsyncProfilerConventionsIT {
    private static final Path JDK = Path.of(System.getProperty("java.home"));
    private static final List<String> HOT_METHODS = List.of("CpuWorkload.alpha", "CpuWorkload.beta",
            "CpuWorkload.gamma");

    @TempDir
    static Path dir;
    private static Path asyncProfiler;
    private static Path mixflame;

    @BeforeAll
    static void profileTheCpuExampleWithBoth() throws Exception {
        ProfilerFiles files = ProfilerFiles.find(BuiltJars.projectRoot(), dir);
        asyncProfiler = dir.resolve("async-profiler.collapsed");
        run("async-profiler", "-agentpath:" + files.asyncProfilerLibrary()
                + "=start,event=cpu,interval=10ms,collapsed,file=" + asyncProfiler);
        mixflame = dir.resolve("mixflame.collapsed");
        run("mixflame", "-javaagent:" + BuiltJars.agent() + "=start,file=" + mixflame);
    }

    @Test
    void anAsyncProfilerFileConvertsThroughReportWithoutRenamedFrames() throws Exception {
        Path converted = dir.resolve("converted.collapsed");
        CommandRun run = CommandRun.tool(JDK, dir.resolve("report"), List.of("report", asyncProfiler.toString(),
                converted.toString()));
        assertThat(run.status()).as(run.stderr()).isZero();
        assertThat(run.stderr()).isEmpty();

        Map<String, Long> original = stacks(asyncProfiler);
        assertThat(original).as("async-profiler's stacks").isNotEmpty();
        assertThat(frames(original)).as("async-profiler's frames")
                .anyMatch(f -> f.contains("CpuWorkload.alpha")).anyMatch(f -> f.contains("::"));
        assertThat(stacks(converted)).isEqualTo(original);
    }

    @Test
    void javaFramesOfTheHotMethodsAreSpelledAsAsyncProfilerSpellsThem() throws Exception {
        Set<String> theirs = frames(stacks(asyncProfiler));
        Set<String> ours = frames(stacks(mixflame));
        for (String method : HOT_METHODS) {
            List<String> spelled = theirs.stream().filter(f -> f.endsWith("/" + method)).toList();
            assertThat(spelled).as("async-profiler's frame for %s", method).hasSize(1);
            assertThat(ours).as("mixflame's frames").contains(spelled.get(0));
        }
        assertThat(ours).as("mixflame's frames without ann").noneMatch(f -> f.matches(".*_\\[[ji01]\\]"));
        assertThat(theirs).as("async-profiler's frames without ann").noneMatch(f -> f.matches(".*_\\[[ji01]\\]"));
    }

    private static void run(String label, String profilerOption) throws Exception {
        Path runDir = Files.createDirectories(dir.resolve(label));
        try (ChildJvm app = ChildJvm.start(JDK, runDir, List.of(profilerOption, "-jar",
                BuiltJars.examples().toString(), "cpu", "--seconds", "5"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
    }

    /** Each stack line (comments skipped) to its samples, lines of one stack added up. */
    private static Map<String, Long> stacks(Path file) throws Exception {
        Map<String, Long> stacks = new TreeMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            stacks.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
        }
        return stacks;
    }

    private static Set<String> frames(Map<String, Long> stacks) {
        Set<String> frames = new TreeSet<>();
        for (String stack : stacks.keySet()) {
            frames.addAll(List.of(stack.split(";")));
        }
        return frames;
    }
}
