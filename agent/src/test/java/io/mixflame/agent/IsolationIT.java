package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profiler inside an application that carries JNA 5.5.0 and SLF4J 1.7 with slf4j-simple (the build copies
 * them to target/isolation-app-libs): both sides keep their own versions and both work, the application calling
 * libc through its JNA and the perf engine calling the kernel through the profiler's.
 */
class IsolationIT {
    private static final Path APP_LIBS = Path.of("target/isolation-app-libs").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void applicationKeepsItsOwnJnaAndSlf4jWhileTheProfilerRuns() throws Exception {
        String classpath;
        try (Stream<Path> jars = Files.list(APP_LIBS)) {
            classpath = Stream.concat(Stream.of(Path.of(AttachIT.TEST_CLASSES)), jars.sorted())
                    .map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        }
        assertThat(classpath).contains("jna-5.5.0.jar").contains("slf4j-simple-1.7.36.jar");
        Path out = dir.resolve("isolated.collapsed");
        try (ChildJvm app = ChildJvm.start(TestJdks.all().get(0), dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,interval=10ms,file=" + out,
                "-cp", classpath, "io.mixflame.testapp.IsolationApp", "4"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            assertThat(app.stdout())
                    .contains("app jna jna-5.5.0.jar getpid " + app.pid())
                    .contains("profiler class hidden: io.mixflame.agent.AgentEntry")
                    .contains("profiler class hidden: io.mixflame.profile.Frame")
                    .doesNotContain("profiler class visible");
            assertThat(app.stderr())
                    .contains("INFO io.mixflame.testapp.IsolationApp - app logs through org.slf4j.impl.SimpleLoggerFactory")
                    .contains("[mixflame] INFO profiling cpu every 10ms with the perf engine")
                    .doesNotContain("SLF4J: ")
                    .doesNotContain("Exception");
        }
        // The perf engine calls the kernel through the profiler's own JNA 5.18, beside the application's JNA 5.5.0.
        assertThat(Files.readString(out, StandardCharsets.UTF_8)).startsWith("# mixflame engine=perf")
                .contains("IsolationApp.main").contains("SpinApp.spinInner");
    }
}
