package io.mixflame.examples.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.examples.CollapsedShares;
import io.mixflame.examples.CountClumping;
import io.mixflame.examples.ProfilePeriods;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.WindowsToolchain;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code launch} on a Windows JVM without java.instrument (the jlinked JRE), under Wine: profiling starts inside the
 * JVM as {@code -javaagent} would, with the native engine of Windows — a helper process started from the JRE's own
 * {@code java.exe} stops the JVM's threads and streams the stacks back — and the {@code cpu} example's profile must
 * show its 50/30/20 split within what chance allows, its Java frames below the launcher's, and the thread's start
 * down to {@code RtlUserThreadStart}.
 */
class WindowsLaunchIT {
    @TempDir
    Path dir;

    @Test
    void cpuExampleLaunchedWithProfilingShowsItsSplitAndWholeMixedStacks() throws Exception {
        CountClumping clumping = new CountClumping();
        ProfilePeriods periods = new ProfilePeriods("samples in alpha, beta and gamma",
                CollapsedShares.samplesForMargin(0.08), Duration.ofMinutes(4), 100);
        // Under Wine the helper kept 28 to 41 of these samples a second here: one period of 26 s is enough on most
        // machines, where two of 15 s each paid the JVM's start-up twice.
        ProfilePeriods.Collected collected = periods.collect(Duration.ofSeconds(26),
                p -> (long) clumping.samples(splitSamples(CollapsedShares.read(p))),
                (i, length) -> {
                    Path out = dir.resolve("cpu-" + i + ".collapsed");
                    CommandRun run = launch("cpu", out, length);
                    assertThat(run.status()).as(run.stderr() + run.stdout()).isZero();
                    assertThat(run.stdout()).contains("cpu: ").contains("rounds in " + length.toSeconds() + " s");
                    String text = Files.readString(out, StandardCharsets.UTF_8);
                    assertThat(text).as("the engine").startsWith("# mixflame engine=helper event=cpu interval=10ms");
                    assertThat(text).as("how long threads were stopped")
                            .containsPattern("# note: helper process: threads stopped [\\d.]+ \\S+ p50");
                    assertThat(text).as("ticks kept of those asked for")
                            .containsPattern("# note: helper process: \\d+ samples, .* in \\d+ of \\d+ ticks asked for");
                    assertThat(text).as("the intervals the samples stood for")
                            .containsPattern("standing for \\d+ intervals of CPU \\(at most \\d+ in one, [\\d.]+ in an interval's");
                    clumping.add(text);
                    return out;
                });
        CollapsedShares profile = collected.shares();
        profile.assertCpuSplit(clumping);
        StringBuilder texts = new StringBuilder();
        for (Path p : collected.profiles()) {
            texts.append(Files.readString(p, StandardCharsets.UTF_8));
        }
        String text = texts.toString();
        // As on Linux (PerfEngineRateIT), nearly every stack is whole: a rare walk ends early, as any walk from
        // outside may when the thread stood in a frame being built.
        Pattern whole = Pattern.compile("^RtlUserThreadStart;BaseThreadInitThunk;.*;\\[?jvm\\.dll[^;]*;"
                + ".*io/mixflame/boot/CliBoot\\.main_\\[.\\];.*io/mixflame/examples/Examples\\.main_\\[.\\];"
                + ".*CpuWorkload\\.main_\\[.\\];.*CpuWorkload\\.alpha_\\[.\\].*");
        List<String> alphaStacks = text.lines().filter(l -> l.contains("CpuWorkload.alpha")).toList();
        long wholeSamples = alphaStacks.stream().filter(l -> whole.matcher(l).matches())
                .mapToLong(WindowsLaunchIT::count).sum();
        long alpha = profile.samplesWithFrameEnding("CpuWorkload.alpha");
        assertThat((double) wholeSamples / alpha).as("alpha's samples with whole mixed stacks in\n%s",
                String.join("\n", alphaStacks)).isGreaterThan(0.95);
    }

    @Test
    void mixedExampleShowsZipDllBelowDeflaterAndMsvcrtQsortBetweenJavaFrames() throws Exception {
        // Both phases judged need samples: deflating ones, and callbacks from qsort (a fifth as many, at least).
        ProfilePeriods periods = new ProfilePeriods("samples in Deflater.deflateBytesBytes (and a fifth as many "
                + "called back from qsort)", 40, Duration.ofMinutes(3), 100);
        // 15 s gave 305 of the 40 needed here.
        ProfilePeriods.Collected collected = periods.collect(Duration.ofSeconds(6),
                p -> {
                    CollapsedShares shares = CollapsedShares.read(p);
                    return Math.min(shares.samplesWithFrameEnding("Deflater.deflateBytesBytes"),
                            5 * shares.samplesWithFrameEnding("DefaultCallbackProxy.callback"));
                },
                (i, length) -> {
                    Path out = dir.resolve("mixed-" + i + ".collapsed");
                    CommandRun run = launch("mixed", out, length);
                    assertThat(run.status()).as(run.stderr() + run.stdout()).isZero();
                    assertThat(run.stdout()).contains("mixed: zlib: ").contains("mixed: qsort: ");
                    return out;
                });
        List<String> lines = new java.util.ArrayList<>();
        for (Path p : collected.profiles()) {
            lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
        }
        List<String> deflating = lines.stream()
                .filter(l -> l.contains("java/util/zip/Deflater.deflateBytesBytes_[")).toList();
        long all = deflating.stream().mapToLong(WindowsLaunchIT::count).sum();
        long intoZipDll = deflating.stream()
                .filter(l -> l.matches(".*java/util/zip/Deflater\\.deflateBytesBytes_\\[.\\];"
                        + "Java_java_util_zip_Deflater_deflateBytesBytes;\\[zip\\.dll\\+0x[0-9a-f]+\\].*"))
                .mapToLong(WindowsLaunchIT::count).sum();
        assertThat((double) intoZipDll / all)
                .as("of those, with zip.dll's JNI function and zlib's code in zip.dll below:\n%s",
                        String.join("\n", deflating)).isGreaterThan(0.8);

        // The comparator runs inside msvcrt's qsort, called through JNA's DLL, which is loaded after profiling
        // started: the module map must learn of it to walk through. Every Java frame called back from C sits on
        // JNA's callback proxy (the example's only callbacks are qsort's); the comparator itself is a sliver of it.
        List<String> comparing = lines.stream()
                .filter(l -> l.contains("DefaultCallbackProxy.callback_[")).toList();
        long compared = comparing.stream().mapToLong(WindowsLaunchIT::count).sum();
        long throughQsort = comparing.stream()
                .filter(l -> l.matches(".*/QsortPhase\\.run_\\[.\\];.*/Native\\.invokeVoid_\\[.\\];[^/]*;qsort;[^/]*;"
                        + "(StubRoutines[^;]*|call_stub[^;]*);com/sun/jna/CallbackReference\\$DefaultCallbackProxy\\.callback_\\[.\\];"
                        + ".*"))
                .mapToLong(WindowsLaunchIT::count).sum();
        assertThat((double) throughQsort / compared)
                .as("of those, below Java's call of qsort and the C library's code:\n%s", String.join("\n", comparing))
                .isGreaterThan(0.8);
    }

    /**
     * Labels set through {@code mixflame-api} under {@code launch} (no instrumentation: the bridge sits in a loader
     * above the application's) and read from the JVM's memory by the helper at each capture: the samples of each
     * phase of the {@code labels} workload carry that phase's label, those between the phases none.
     */
    @Test
    void labelsOfTheApiAreOnTheSamplesTheHelperTakes() throws Exception {
        ProfilePeriods periods = new ProfilePeriods("samples in either phase", 400, Duration.ofMinutes(3), 100);
        // 15 s gave 1 073 of the 400 needed here.
        ProfilePeriods.Collected collected = periods.collect(Duration.ofSeconds(8),
                p -> CollapsedShares.read(p).samplesWithFrameEnding("inPhaseA")
                        + CollapsedShares.read(p).samplesWithFrameEnding("inPhaseB"),
                (i, length) -> {
                    Path out = dir.resolve("labels-" + i + ".collapsed");
                    CommandRun run = launch("labels", "labels=api,", out, length);
                    assertThat(run.status()).as(run.stderr() + run.stdout()).isZero();
                    assertThat(run.stdout()).contains("recording true");
                    return out;
                });
        long a = 0;
        long b = 0;
        long wrong = 0;
        for (Path p : collected.profiles()) {
            for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                boolean inA = line.contains("LabelSwitchWorkload.inPhaseA");
                boolean inB = line.contains("LabelSwitchWorkload.inPhaseB");
                boolean between = line.contains("LabelSwitchWorkload.outsidePhases");
                long n = count(line);
                a += inA ? n : 0;
                b += inB ? n : 0;
                if ((inA && !line.startsWith("[phase=a];")) || (inB && !line.startsWith("[phase=b];"))
                        || (between && line.startsWith("[phase="))) {
                    wrong += n;
                }
            }
        }
        System.out.printf("labels under launch: %d samples in phase a, %d in phase b, %d labelled otherwise%n", a, b,
                wrong);
        assertThat(a).as("samples in phase a").isPositive();
        assertThat(b).as("samples in phase b").isPositive();
        // Each capture is stamped once its thread has stopped, which cannot change its labels until resumed.
        assertThat(wrong).as("of %d samples in a phase, those with another phase's label or none", a + b)
                .isLessThanOrEqualTo(Math.max(1, (a + b) / 200));
    }

    /** Runs an example for {@code length} under {@code launch} on the Windows JRE, profiling at 10 ms into {@code out}. */
    private CommandRun launch(String example, Path out, Duration length) throws Exception {
        return launch(example, "", out, length);
    }

    private CommandRun launch(String example, String options, Path out, Duration length) throws Exception {
        WindowsToolchain wine = WindowsToolchain.require();
        return wine.runUnderWine(dir, example + "-" + out.getFileName(), length.plus(Duration.ofMinutes(3)), List.of(wine.javaExe().toString(), "-jar",
                wine.windowsPath(BuiltJars.agent()), "launch", "start," + options + "interval=10ms,ann,file="
                        + wine.windowsPath(out), "--",
                "-cp", wine.windowsPath(BuiltJars.examples()), "io.mixflame.examples.Examples", example, "--seconds",
                Long.toString(length.toSeconds())));
    }

    private static long splitSamples(CollapsedShares profile) {
        return profile.samplesWithFrameEnding("CpuWorkload.alpha") + profile.samplesWithFrameEnding("CpuWorkload.beta")
                + profile.samplesWithFrameEnding("CpuWorkload.gamma");
    }

    private static long count(String collapsedLine) {
        return Long.parseLong(collapsedLine.substring(collapsedLine.lastIndexOf(' ') + 1));
    }
}
