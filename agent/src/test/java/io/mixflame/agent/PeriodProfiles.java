package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;

/**
 * A test app profiled by the agent in one-second periods, one collapsed file a period, so that a test can leave out
 * the first periods (the app's warm-up, the profiler settling) and judge the steady state after them.
 */
final class PeriodProfiles {
    private PeriodProfiles() {
    }

    /**
     * Runs {@code mainClass} of the test classes with {@code args} on {@code jdk} under the agent until it exits, and
     * returns the folder of its periods' profiles.
     *
     * @param sampling the agent's options for what and how often it samples, such as {@code interval=1ms}
     */
    static Path record(Path jdk, Path dir, String sampling, String mainClass, String... args) throws Exception {
        Path profiles = Files.createDirectories(dir.resolve("profiles"));
        List<String> command = new ArrayList<>(List.of("-javaagent:" + BuiltJars.agent() + "=start," + sampling
                        + ",threads,loop=1s,keep=100,file=" + profiles.resolve("period.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, mainClass));
        command.addAll(List.of(args));
        try (ChildJvm app = ChildJvm.start(jdk, dir, command)) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
        return profiles;
    }

    /** The collapsed lines {@code keep} accepts, of every period after the first {@code skipped}. */
    static List<String> linesAfter(Path profiles, int skipped, Predicate<String> keep) throws Exception {
        List<Path> periods;
        try (var listed = Files.list(profiles)) {
            periods = listed.sorted().toList();
        }
        assertThat(periods).as("periods written").hasSizeGreaterThan(skipped + 2);
        List<String> kept = new ArrayList<>();
        for (Path period : periods.subList(skipped, periods.size())) {
            Files.readAllLines(period, StandardCharsets.UTF_8).stream().filter(keep).forEach(kept::add);
        }
        return kept;
    }

    /** The samples the collapsed lines count together. */
    static long samples(Collection<String> lines) {
        return lines.stream().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
