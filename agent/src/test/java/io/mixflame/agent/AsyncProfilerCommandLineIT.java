package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

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
 * async-profiler's agent command lines, unchanged: its output words pick the format whatever the file's name, and its
 * options that mixflame does not implement are named once in the log while profiling goes on.
 */
class AsyncProfilerCommandLineIT {
    @TempDir
    Path dir;

    @Test
    void collapsedIntoATxtFileWithOptionsMixflameIgnores() throws Exception {
        Path out = dir.resolve("x.txt");
        String stderr = run("start,event=cpu,collapsed,cstack=vm,jstackdepth=2048,file=" + out);
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(lines).as("collapsed stacks").anyMatch(l -> l.matches(".*SpinApp\\.spinOuter.* \\d+"));
        assertThat(stderr.lines().filter(l -> l.contains("ignored async-profiler's cstack, jstackdepth")))
                .as(stderr).hasSize(1);
    }

    @Test
    void flamegraphIntoAnHtmlFile() throws Exception {
        Path out = dir.resolve("x.html");
        run("start,event=cpu,flamegraph,file=" + out);
        assertThat(Files.readString(out, StandardCharsets.UTF_8)).startsWith("<!DOCTYPE html>");
        io.mixflame.profile.Profile page = io.mixflame.report.ProfileFiles.read(out, warning -> { });
        assertThat(page.frames()).as("the page's frames").anyMatch(f -> f.name().contains("SpinApp.spinOuter"));
    }

    private String run(String options) throws Exception {
        try (ChildJvm app = ChildJvm.start(TestJdks.running(), dir, List.of("-javaagent:" + BuiltJars.agent() + "="
                + options, "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "2"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            assertThat(app.stderr()).doesNotContain("bad options");
            return app.stderr();
        }
    }
}
