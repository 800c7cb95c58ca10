package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.TestJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code record --pid}: another JVM profiled from outside, nothing loaded into it. */
class RecordIT {
    private static final Path JDK = TestJdks.all().get(0);

    @TempDir
    Path dir;

    @Test
    void recordsAnotherJvmWithThePerfEngine() throws Exception {
        Path out = dir.resolve("rec.collapsed");
        try (ChildJvm app = spinning(60)) {
            CommandRun run = CommandRun.tool(JDK, dir.resolve("record"), List.of("record", "--pid",
                    Long.toString(app.pid()), "-d", "2", "-f", out.toString(), "-t"));
            assertThat(run.status()).as(run.stderr()).isZero();
            assertThat(run.stdout()).containsPattern("[1-9]\\d* samples written to " + out);
            String text = Files.readString(out, StandardCharsets.UTF_8);
            assertThat(text).startsWith("# mixflame engine=perf event=cpu interval=10ms")
                    .containsPattern("(?m)^\\[main tid=\\d+\\];.*SpinApp\\.spinOuter;.*SpinApp\\.spinInner \\d+$");
            assertThat(app.isAlive()).isTrue();
            assertThat(app.stderr()).doesNotContain("mixflame");
            // It recorded in a JVM of its own, started by the one run here, whose cost is counted with it.
            assertThat(run.stdout()).containsPattern("profiler cost: the JVM that started this one: \\d+\\.\\d\\d s of CPU");
        }
    }

    /**
     * The JVM the user started relaunches the tool with C1 alone and the serial collector; killed, it leaves no
     * recording behind: the second JVM stops and writes what it has.
     */
    @Test
    void theRecordingJvmOfItsOwnEndsWithTheOneTheUserStarted() throws Exception {
        Path out = dir.resolve("orphan.collapsed");
        try (ChildJvm app = spinning(120)) {
            Path runDir = Files.createDirectories(dir.resolve("orphan"));
            try (ChildJvm first = ChildJvm.start(JDK, runDir, List.of("-jar", BuiltJars.agent().toString(), "record",
                    "--pid", Long.toString(app.pid()), "-d", "100", "-f", out.toString()))) {
                first.awaitOutput("recording " + app.pid(), Duration.ofSeconds(60));
                List<ProcessHandle> second = ProcessHandle.of(first.pid()).orElseThrow().children().toList();
                assertThat(second).hasSize(1);
                assertThat(second.get(0).info().arguments().map(List::of).orElse(List.of()))
                        .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
                ProcessHandle.of(first.pid()).orElseThrow().destroyForcibly();
                second.get(0).onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
                // Killed the moment it began, it may have walked no sample of the target yet (the case above checks
                // what a recording holds): what matters here is that it ends and writes its file.
                assertThat(first.stdout()).containsPattern("\\d+ samples written to " + out);
                assertThat(Files.readString(out, StandardCharsets.UTF_8))
                        .startsWith("# mixflame engine=perf event=cpu interval=10ms");
            }
        }
    }

    /** A JVM spinning in {@code SpinApp} for that many seconds, ready to be recorded. */
    private ChildJvm spinning(int seconds) throws Exception {
        ChildJvm app = ChildJvm.start(JDK, dir, List.of("-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp",
                Integer.toString(seconds)));
        try {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            return app;
        } catch (Exception | AssertionError e) {
            app.close();
            throw e;
        }
    }

    @Test
    void badArgumentsAreOneLine() throws Exception {
        CommandRun noFile = CommandRun.tool(JDK, dir.resolve("nofile"), List.of("record", "--pid", "1"));
        assertThat(noFile.status()).isEqualTo(2);
        assertThat(noFile.stderr().strip()).isEqualTo("mixflame record: -f/--file OUT is missing (see: record --help)");
        CommandRun gone = CommandRun.tool(JDK, dir.resolve("gone"), List.of("record", "--pid", "999999999", "--file",
                dir.resolve("x.html").toString()));
        assertThat(gone.status()).isEqualTo(2);
        assertThat(gone.stderr().strip()).isEqualTo("mixflame record: no process 999999999");
        CommandRun badOption = CommandRun.tool(JDK, dir.resolve("bad"), List.of("record", "--pid", "1", "--file",
                dir.resolve("x.html").toString(), "interval=soon"));
        assertThat(badOption.status()).isEqualTo(2);
        assertThat(badOption.stderr()).startsWith("mixflame record: interval: not a duration");
        CommandRun badFlag = CommandRun.tool(JDK, dir.resolve("badflag"), List.of("record", "--pid", "1", "-x"));
        assertThat(badFlag.status()).isEqualTo(2);
        assertThat(badFlag.stderr().strip()).isEqualTo("mixflame record: unknown option '-x' (see: record --help)");
    }
}
