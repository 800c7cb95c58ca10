package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Attaches the built jar to a running JVM and drives it with start, status, dump and stop. */
class AttachIT {
    static final String TEST_CLASSES = Path.of("target/test-classes").toAbsolutePath().toString();

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void startStatusDumpStopOnARunningJvm(Path jdk) throws Exception {
        Path finalFile = dir.resolve("final.collapsed");
        Path dumpFile = dir.resolve("dump.collapsed");
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of("-cp", TEST_CLASSES, "io.mixflame.testapp.SpinApp", "120"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            String pid = Long.toString(app.pid());

            CommandRun start = CommandRun.tool(jdk, dir.resolve("start"),
                    List.of("attach", pid, "start,interval=10ms,file=" + finalFile));
            assertThat(start.status()).as(start.stderr()).isZero();
            assertThat(start.stdout()).contains("profiling cpu every 10ms with the perf engine");

            Thread.sleep(3_000);
            CommandRun status = CommandRun.tool(jdk, dir.resolve("status"), List.of("attach", pid, "status"));
            assertThat(status.status()).as(status.stderr()).isZero();
            assertThat(status.stdout()).containsPattern("profiling cpu with the perf engine for \\d+ s, [1-9]\\d* samples");

            CommandRun dump = CommandRun.tool(jdk, dir.resolve("dump"), List.of("attach", pid, "dump", dumpFile.toString()));
            assertThat(dump.status()).as(dump.stderr()).isZero();
            assertThat(Files.readString(dumpFile, StandardCharsets.UTF_8))
                    .contains("# mixflame engine=perf event=cpu interval=10ms")
                    .containsPattern("io/mixflame/testapp/SpinApp\\.spinOuter;io/mixflame/testapp/SpinApp\\.spinInner \\d+");

            CommandRun again = CommandRun.tool(jdk, dir.resolve("again"), List.of("attach", pid, "start"));
            assertThat(again.status()).isEqualTo(1);
            assertThat(again.stderr()).contains("already profiling");

            CommandRun stop = CommandRun.tool(jdk, dir.resolve("stop"), List.of("attach", pid, "stop"));
            assertThat(stop.status()).as(stop.stderr()).isZero();
            assertThat(stop.stdout()).contains("samples written to " + finalFile);
            assertThat(Files.readString(finalFile, StandardCharsets.UTF_8)).contains("SpinApp.spinInner");

            CommandRun after = CommandRun.tool(jdk, dir.resolve("after"), List.of("attach", pid, "status"));
            assertThat(after.stdout()).contains("not profiling");
            assertThat(app.isAlive()).isTrue();
        }
    }

    /**
     * An attach must not show the application the properties that point JNA at the profiler's copy of its library:
     * the application's own JNA, initializing at that moment, would load the profiler's build (and fail on its
     * version check where the application carries another JNA). The watcher polls them throughout the attach's
     * start, when the profiler's JNA loads.
     */
    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void anAttachNeverShowsTheApplicationJnasLoadingProperties(Path jdk) throws Exception {
        try (ChildJvm app = ChildJvm.start(jdk, dir,
                List.of("-cp", TEST_CLASSES, "io.mixflame.testapp.PropertyWatchApp", "120"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            String pid = Long.toString(app.pid());
            CommandRun start = CommandRun.tool(jdk, dir.resolve("start"),
                    List.of("attach", pid, "start,interval=10ms,file=" + dir.resolve("p.collapsed")));
            assertThat(start.status()).as(start.stderr()).isZero();
            CommandRun stop = CommandRun.tool(jdk, dir.resolve("stop"), List.of("attach", pid, "stop"));
            assertThat(stop.status()).as(stop.stderr()).isZero();
            assertThat(app.isAlive()).isTrue();
            assertThat(app.stdout()).doesNotContain("seen ");
        }
    }
}
