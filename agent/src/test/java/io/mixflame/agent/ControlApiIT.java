package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.api.Mixflame;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java API's commands ({@code Mixflame.execute}), run by the agent loaded into the JVM, or refused without it. */
class ControlApiIT {
    @TempDir
    Path dir;

    @Test
    void anApplicationProfilesItselfThroughTheApi() throws Exception {
        Path out = dir.resolve("self.collapsed");
        Path dump = dir.resolve("so-far.collapsed");
        String stdout = run("-javaagent:" + BuiltJars.agent() + "=load", out, dump);
        assertThat(stdout).contains("status: not profiling", "start: profiling cpu", "dump: ", "stop: ",
                "second stop: not profiling", "bad: unknown option 'bogus'");
        for (Path p : List.of(out, dump)) {
            assertThat(Files.readAllLines(p, StandardCharsets.UTF_8)).as(p.toString())
                    .anyMatch(l -> l.contains("ControlApp.burn"));
        }
    }

    @Test
    void withoutTheAgentEachCommandSaysSo() throws Exception {
        assertThat(run(null, dir.resolve("x.collapsed"), dir.resolve("y.collapsed")))
                .contains("refused: the mixflame agent is not loaded in this JVM");
    }

    private String run(String agent, Path out, Path dump) throws Exception {
        String api = Path.of(Mixflame.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        List<String> args = new java.util.ArrayList<>();
        if (agent != null) {
            args.add(agent);
        }
        args.addAll(List.of("-cp", AttachIT.TEST_CLASSES + File.pathSeparator + api, "io.mixflame.testapp.ControlApp",
                out.toString(), dump.toString()));
        try (ChildJvm app = ChildJvm.start(TestJdks.running(), dir, args)) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            return app.stdout();
        }
    }
}
