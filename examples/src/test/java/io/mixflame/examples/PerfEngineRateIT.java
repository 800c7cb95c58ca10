package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default engine on Linux is perf: the {@code cpu} example at 10 ms gives about 100 samples per second of its
 * busy thread's CPU time (±15%; cpu-clock counts CPU time, and on two shared cores the thread does not get all of a
 * run's seconds, so runs of 5 s are added until the thread has had about 3 s of CPU), the output names the perf engine, and the stacks are mixed: Java frames down to {@code main}
 * and native frames below them to the thread's start. The profiler's own threads are counted but not walked.
 */
class PerfEngineRateIT {
    @TempDir
    Path dir;

    // The rate is the kernel's and the engine's: one JDK (the timer engine's tests run on both).
    @Test
    void busyThreadIsSampledAHundredTimesASecondWithMixedStacks() throws Exception {
        Path jdk = TestJdks.running();
        // A loaded machine gives the busy thread less than all of a run's seconds: the rate is judged over at least
        // 3 s of its CPU time, however many runs that takes, not over one run of a fixed length.
        long[] cpuMillis = new long[1];
        List<Path> profiles = new ProfilePeriods("busy-thread samples (10 ms of its CPU time each)", 300,
                Duration.ofMinutes(2), 100).collect(Duration.ofSeconds(5),
                p -> CollapsedShares.read(p).samplesWithFrameEnding("CpuWorkload.run"), (i, length) -> {
                    Path out = dir.resolve("cpu-" + i + ".collapsed");
                    try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                            "-javaagent:" + BuiltJars.agent() + "=start,event=cpu,interval=10ms,threads,file=" + out,
                            "-jar", BuiltJars.examples().toString(), "cpu", "--seconds",
                            Long.toString(length.toSeconds())))) {
                        assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
                        assertThat(app.stderr()).contains("with the perf engine");
                        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) ms of CPU time")
                                .matcher(app.stdout());
                        assertThat(m.find()).as(app.stdout()).isTrue();
                        cpuMillis[0] += Long.parseLong(m.group(1));
                    }
                    assertThat(Files.readAllLines(out, StandardCharsets.UTF_8).get(0))
                            .startsWith("# mixflame engine=perf event=cpu interval=10ms");
                    return out;
                }).profiles();
        List<String> lines = new java.util.ArrayList<>();
        for (Path p : profiles) {
            lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
        }
        long busy = CollapsedShares.read(profiles).samplesWithFrameEnding("CpuWorkload.run");
        assertThat(busy * 1000.0 / cpuMillis[0]).as("samples per CPU second of the busy thread over %d ms",
                cpuMillis[0]).isCloseTo(100.0, within(15.0));
        List<String> stacks = lines.stream().filter(l -> !l.startsWith("#"))
                .map(l -> l.substring(l.indexOf("];") + 2)).toList();
        assertThat(lines.stream().filter(l -> l.startsWith("[mixflame-perf-")))
                .as("the profiler's own threads are counted, not walked")
                .allMatch(l -> l.matches("\\[mixflame-perf-(sampler|walker|names) tid=\\d+];\\[mixflame profiler] \\d+"));
        // The application's main thread runs the agent's premain, which starts the engine while sampling begins: its
        // samples there are the application's, and may show the engine's start. Only the profiler's threads must not.
        assertThat(stacks).as("no stack shows the engine's own code").noneMatch(l -> l.contains("io/mixflame/engine/")
                && !l.contains("io/mixflame/boot/AgentBoot.premain"));
        long mixed = stacks.stream().filter(l -> l.contains("CpuWorkload.run"))
                .filter(l -> l.startsWith("__clone3;start_thread;") || l.startsWith("clone3;start_thread;"))
                .filter(l -> l.contains(";io/mixflame/examples/Examples.main;"))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        assertThat((double) mixed / busy).as("busy-thread samples with Java frames down to main and native frames to the"
                + " thread's start").isGreaterThan(0.95);
    }
}
