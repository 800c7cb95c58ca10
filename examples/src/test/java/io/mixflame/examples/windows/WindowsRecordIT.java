package io.mixflame.examples.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.examples.CollapsedShares;
import io.mixflame.examples.ProfilePeriods;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.WindowsToolchain;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code record --pid} of a Windows JVM from another Windows JVM, under Wine: the {@code cpu} example profiled from
 * outside by stopping its threads must show its Java frames down to {@code main}, and below them the native frames of
 * the thread's start down to where Windows starts threads; the cost notes say how long threads were kept stopped.
 * The route from outside is the subject: the engine's shares are {@link WindowsLaunchIT}'s test, which runs the same
 * engine on the same example.
 */
class WindowsRecordIT {
    private static final Pattern PID = Pattern.compile("cpu: pid (\\d+)");
    /** Enough stacks to see that they are whole, not every one by chance. */
    private static final long NEEDED = 100;
    private static final Duration BOUND = Duration.ofMinutes(4);

    @TempDir
    Path dir;

    @Test
    void cpuExampleProfiledFromOutsideShowsWholeMixedStacks() throws Exception {
        WindowsToolchain wine = WindowsToolchain.require();
        Process app = wine.startUnderWine(dir, "cpu", List.of(wine.javaExe().toString(), "-jar",
                wine.windowsPath(BuiltJars.examples()), "cpu", "--seconds", "600"));
        try {
            String pid = WindowsToolchain.awaitOutput(app, dir, "cpu", PID, Duration.ofMinutes(2)).group(1);
            // Past the JVM's start-up and the first compilations, as a profile of a running service would be.
            TimeUnit.SECONDS.sleep(3);
            ProfilePeriods periods = new ProfilePeriods("samples in alpha, beta and gamma", NEEDED, BOUND, 100);
            ProfilePeriods.Collected collected = periods.collect(Duration.ofSeconds(5),
                    p -> splitSamples(CollapsedShares.read(p)), (i, length) -> record(wine, pid, i, length));

            StringBuilder texts = new StringBuilder();
            for (Path p : collected.profiles()) {
                texts.append(Files.readString(p, StandardCharsets.UTF_8));
            }
            String text = texts.toString();
            List<String> alphaStacks = text.lines().filter(l -> l.contains("CpuWorkload.alpha")).toList();
            assertThat(alphaStacks).isNotEmpty().allSatisfy(stack -> {
                List<String> frames = List.of(stack.substring(0, stack.lastIndexOf(' ')).split(";"));
                assertThat(frames.get(0)).as("root of %s", stack).isEqualTo("RtlUserThreadStart");
                assertThat(frames.get(1)).as("below the root of %s", stack).isEqualTo("BaseThreadInitThunk");
                int main = indexOf(frames, "io/mixflame/examples/Examples.main");
                int workload = indexOf(frames, "io/mixflame/examples/CpuWorkload.main");
                int alphaAt = indexOf(frames, "io/mixflame/examples/CpuWorkload.alpha");
                assertThat(main).as("Examples.main in %s", stack).isPositive();
                assertThat(workload).as("CpuWorkload.main below alpha in %s", stack).isBetween(main + 1, alphaAt - 1);
                assertThat(frames.subList(2, main)).as("native frames of the thread's start in %s", stack)
                        .anyMatch(f -> f.contains("jvm.dll"));
            });
        } finally {
            WindowsToolchain.end(app);
        }
    }

    /** One period: {@code record --pid} of the running example for {@code length}, its cost notes checked. */
    private Path record(WindowsToolchain wine, String pid, int index, Duration length) throws Exception {
        Path out = dir.resolve("cpu-" + index + ".collapsed");
        CommandRun record = wine.runUnderWine(dir, "record-" + index, length.plus(Duration.ofMinutes(3)), List.of(
                wine.javaExe().toString(), "-jar", wine.windowsPath(BuiltJars.agent()), "record", "--pid", pid,
                "--duration", length.toSeconds() + "s", "--file", wine.windowsPath(out), "interval=10ms"));
        String said = record.stdout().replace("\r\n", "\n");
        assertThat(record.status()).as(record.stderr() + said).isZero();
        assertThat(said).as("the engine").contains("with the suspend engine");
        assertThat(said).as("the cost notes").containsPattern("threads stopped [\\d.]+ \\S+ p50 / [\\d.]+ \\S+ p99")
                .containsPattern("in \\d+ of \\d+ ticks asked for \\(\\d+%\\)");
        return out;
    }

    private static long splitSamples(CollapsedShares profile) {
        return profile.samplesWithFrameEnding("CpuWorkload.alpha") + profile.samplesWithFrameEnding("CpuWorkload.beta")
                + profile.samplesWithFrameEnding("CpuWorkload.gamma");
    }

    private static int indexOf(List<String> frames, String method) {
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).replaceFirst("_\\[.\\]$", "").equals(method)) {
                return i;
            }
        }
        return -1;
    }
}
