package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code -javaagent} with each output format: the profile is written when the application exits. */
class PremainIT {
    @TempDir
    Path dir;

    /** Each engine once, the JDKs in turn: the agent's start on each JDK is the compiler directive's test's too. */
    static Stream<Arguments> runs() {
        return io.mixflame.testsupport.TestJdks.spread("perf", "jfr");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void writesTheProfileAtExit(Path jdk, String engine) throws Exception {
        Path collapsed = dir.resolve("out-%p.collapsed");
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,interval=10ms,threads,engine=" + engine + ",file=" + collapsed,
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "4"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).isZero();
            Path written = dir.resolve("out-" + app.pid() + ".collapsed");
            String text = Files.readString(written, StandardCharsets.UTF_8);
            assertThat(text).startsWith("# mixflame engine=" + engine + " event=cpu interval=10ms")
                    .containsPattern("(?m)^\\[main tid=\\d+\\];.*SpinApp\\.main;.*SpinApp\\.spinInner \\d+$");
            assertThat(app.stderr()).contains("[mixflame] INFO written at exit");
            // The application's stderr carries nothing but the profiler's own lines: no JDK warnings about JNA
            // loading its library (JDK 22 and later warn unless native access is granted).
            assertThat(app.stderr().lines().filter(l -> !l.isBlank()))
                    .allMatch(l -> l.startsWith("[mixflame] "), "only [mixflame] lines");
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".tmp"));
            }
        }
    }

    /** The agent adds its compiler directive, for its own packages only: the application's code compiles as before. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void aCompilerDirectiveCoversTheProfilersPackagesOnly(Path jdk) throws Exception {
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,file=" + dir.resolve("d.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "30"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            Process jcmd = new ProcessBuilder(jdk.resolve("bin/jcmd").toString(), Long.toString(app.pid()),
                    "Compiler.directives_print").redirectErrorStream(true).start();
            String printed = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(jcmd.waitFor()).as(printed).isZero();
            assertThat(printed).contains("io/mixflame/unwind/*.*", "io/mixflame/symbolize/*.*")
                    .doesNotContain("io/mixflame/testapp").doesNotContain("io/mixflame/*.*");
            // C1 alone compiles the profiler's methods; the labels' recorder, on the application's threads, as before.
            List<String> blocks = List.of(printed.split("Directive:"));
            assertThat(blocks).filteredOn(b -> b.contains("io/mixflame/capture/labels/*.*")).singleElement()
                    .asString().containsPattern("c2 directives:\\s+inline: -\\s+Enable:true Exclude:false");
            assertThat(blocks).filteredOn(b -> b.contains("io/mixflame/unwind/*.*")).singleElement()
                    .asString().containsPattern("c2 directives:\\s+inline: -\\s+Enable:true Exclude:true");
            // Matched in the order given: the labels' directive first.
            assertThat(printed.indexOf("io/mixflame/capture/labels/*.*"))
                    .isLessThan(printed.indexOf("io/mixflame/unwind/*.*"));
        }
    }

    /** The build writes the jar's SHA-256 beside it, as {@code sha256sum -c} reads it, and it is the jar's. */
    @org.junit.jupiter.api.Test
    void theJarsChecksumIsBesideIt() throws Exception {
        Path jar = BuiltJars.agent();
        String line = Files.readString(jar.resolveSibling("mixflame.jar.sha256"), StandardCharsets.US_ASCII).strip();
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar));
        assertThat(line).isEqualTo(java.util.HexFormat.of().formatHex(digest) + "  mixflame.jar");
    }
}
