package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.TestJdks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad options and unwritable files: one clear line, and the application runs on. */
class BadInputIT {
    private static final Path JDK = TestJdks.all().get(0);

    @TempDir
    Path dir;

    private ChildJvm spinWithAgent(String options, int seconds) throws Exception {
        return ChildJvm.start(JDK, dir, List.of("-javaagent:" + BuiltJars.agent() + "=" + options,
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", Integer.toString(seconds)));
    }

    @Test
    void badAgentOptionsLeaveTheApplicationRunning() throws Exception {
        try (ChildJvm app = spinWithAgent("start,interval=banana", 2)) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(app.stdout()).contains("done");
            assertThat(app.stderr().lines().filter(l -> l.contains("mixflame")))
                    .singleElement().asString()
                    .startsWith("[mixflame] ERROR bad options")
                    .contains("interval");
            assertThat(app.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }

    @Test
    void missingDirectoryIsSaidAtStartAndTheProfileGoesToTheTemporaryDirectory() throws Exception {
        Path missingDir = dir.resolve("no-such-dir");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        try (ChildJvm app = ChildJvm.start(JDK, dir, List.of("-Djava.io.tmpdir=" + tmp,
                "-javaagent:" + BuiltJars.agent() + "=start,file=" + missingDir.resolve("out.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "3"))) {
            // Said before the run, not only at its end.
            app.awaitOutput("ready", Duration.ofSeconds(30));
            assertThat(app.stderr()).contains("[mixflame] WARN file=" + missingDir.resolve("out.collapsed")
                    + ": directory " + missingDir + " does not exist; unless it appears, profiles go to " + tmp);
            assertThat(app.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(app.stdout()).contains("done");
            assertThat(app.stderr()).contains("[mixflame] WARN written at exit: ")
                    .contains("samples written to " + tmp.resolve("out.collapsed") + " (")
                    .doesNotContain("\tat ").doesNotContain("ERROR");
            assertThat(missingDir).doesNotExist();
            assertThat(Files.readString(tmp.resolve("out.collapsed"))).startsWith("# mixflame engine=");
        }
    }

    @Test
    void aHugeBadOptionStringIsCutInTheLog() throws Exception {
        String huge = "start,interval=" + "9".repeat(100_000);
        try (ChildJvm app = spinWithAgent(huge, 1)) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).isZero();
            String line = app.stderr().lines().filter(l -> l.contains("[mixflame]")).findFirst().orElseThrow();
            assertThat(line).startsWith("[mixflame] ERROR bad options").contains("more characters");
            assertThat(line.length()).isLessThan(1000);
        }
    }

    @Test
    void attachRejectsBadOptionsBeforeAttaching() throws Exception {
        try (ChildJvm app = ChildJvm.start(JDK, dir, List.of("-cp", AttachIT.TEST_CLASSES,
                "io.mixflame.testapp.SpinApp", "60"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            String pid = Long.toString(app.pid());

            CommandRun bad = CommandRun.tool(JDK, dir.resolve("bad"), List.of("attach", pid, "start,event=nope"));
            assertThat(bad.status()).isEqualTo(2);
            assertThat(bad.stderr().strip())
                    .isEqualTo("mixflame attach: unknown event 'nope' (expected cpu, wall, alloc, lock, ctimer or itimer)");

            CommandRun unwritable = CommandRun.tool(JDK, dir.resolve("start"),
                    List.of("attach", pid, "start,file=" + dir.resolve("missing/out.collapsed")));
            assertThat(unwritable.status()).isZero();
            assertThat(unwritable.stdout()).contains("does not exist; unless it appears, profiles go to");
            CommandRun stop = CommandRun.tool(JDK, dir.resolve("stop"), List.of("attach", pid, "stop"));
            assertThat(stop.status()).isZero();
            assertThat(stop.stdout()).contains("could not be written").doesNotContain("\tat ");
            assertThat(dir.resolve("missing")).doesNotExist();

            CommandRun stopAgain = CommandRun.tool(JDK, dir.resolve("stop2"), List.of("attach", pid, "stop"));
            assertThat(stopAgain.status()).isEqualTo(1);
            assertThat(stopAgain.stderr().strip()).isEqualTo("not profiling");
            assertThat(app.isAlive()).isTrue();
        }
    }

    @Test
    void attachToAMissingProcessSaysSo() throws Exception {
        CommandRun run = CommandRun.tool(JDK, dir.resolve("missing"), List.of("attach", "999999999"));
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.stderr().strip()).isEqualTo("mixflame attach: no process 999999999");
    }

    @Test
    void attachToAProcessThatIsNotAJvmSendsItNothing() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            CommandRun run = CommandRun.tool(JDK, dir.resolve("notjvm"),
                    List.of("attach", Long.toString(sleeper.pid()), "status"));
            assertThat(run.status()).isEqualTo(1);
            assertThat(run.stderr().strip()).isEqualTo("mixflame attach: process " + sleeper.pid()
                    + " is not a HotSpot JVM (no libjvm.so mapped); nothing was sent to it");
            Thread.sleep(500);
            assertThat(sleeper.isAlive()).as("a SIGQUIT would have killed it").isTrue();
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void stacksOfAProcessThatIsGoneOrNotANumberIsOneLine() throws Exception {
        CommandRun notNumber = CommandRun.tool(JDK, dir.resolve("nan"), List.of("stacks", "12x"));
        assertThat(notNumber.status()).isEqualTo(2);
        assertThat(notNumber.stderr().strip())
                .isEqualTo("mixflame stacks: '12x' is not a process id (a positive whole number)");
        CommandRun frames = CommandRun.tool(JDK, dir.resolve("frames"),
                List.of("stacks", "1", "--max-frames", "99999999999999999999"));
        assertThat(frames.stderr().strip()).isEqualTo(
                "mixflame stacks: '99999999999999999999' is not a number of frames (a positive whole number)");
    }

    @Test
    void unknownCommandIsUsageError() throws Exception {
        CommandRun run = CommandRun.tool(JDK, dir.resolve("unknown"), List.of("frobnicate"));
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.stderr()).startsWith("mixflame: unknown command 'frobnicate'");
    }
}
