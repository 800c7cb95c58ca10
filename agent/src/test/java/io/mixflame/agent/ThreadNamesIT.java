package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Threads that ended before the profile was written keep the names they had while they ran: the name is taken when
 * the thread is first sampled, and again when the thread renames itself.
 */
class ThreadNamesIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void endedAndRenamedThreadsKeepTheirNames(Path jdk) throws Exception {
        Path out = dir.resolve("threads.collapsed");
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,interval=10ms,threads,file=" + out,
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.ShortLivedThreadsApp", "3"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(90))).as(app.stderr()).isZero();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        String app = "io/mixflame/testapp/ShortLivedThreadsApp";
        assertThat(text).as(text)
                .containsPattern("(?m)^\\[EarlyEndingWorker tid=\\d+\\];.*" + app + "\\.spinFor;.*")
                .containsPattern("(?m)^\\[RenamedBeforeWork tid=\\d+\\];.*" + app + "\\.spinFor;.*")
                .containsPattern("(?m)^\\[RenamedMidway tid=\\d+\\];.*" + app + "\\.spinFor;.*")
                .doesNotContainPattern("(?m)^\\[thread \\d+ tid=")
                .doesNotContain("[NameGivenAtStart tid=");
    }
}
