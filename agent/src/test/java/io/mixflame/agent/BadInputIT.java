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
    void unwritableFileAtExitIsOneLineAndNoPartialFile() throws Exception {
        Path missingDir = dir.resolve("no-such-dir");
        try (ChildJvm app = spinWithAgent("start,file=" + missingDir.resolve("out.html"), 3)) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(app.stdout()).contains("done");
            assertThat(app.stderr()).contains("[mixflame] ERROR written at exit, but the profile could not be written")
                    .doesNotContain("\tat ");
            assertThat(missingDir).doesNotExist();
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
            assertThat(bad.stderr().strip()).isEqualTo("mixflame attach: unknown event 'nope' (expected cpu or wall)");

            CommandRun unwritable = CommandRun.tool(JDK, dir.resolve("start"),
                    List.of("attach", pid, "start,file=" + dir.resolve("missing/out.collapsed")));
            assertThat(unwritable.status()).isZero();
            CommandRun stop = CommandRun.tool(JDK, dir.resolve("stop"), List.of("attach", pid, "stop"));
            assertThat(stop.status()).isEqualTo(1);
            assertThat(stop.stderr()).contains("could not be written").doesNotContain("\tat ");

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
        assertThat(run.stderr()).startsWith("mixflame attach: could not attach to 999999999").doesNotContain("\tat ");
    }

    @Test
    void unknownCommandIsUsageError() throws Exception {
        CommandRun run = CommandRun.tool(JDK, dir.resolve("unknown"), List.of("frobnicate"));
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.stderr()).startsWith("mixflame: unknown command 'frobnicate'");
    }
}
