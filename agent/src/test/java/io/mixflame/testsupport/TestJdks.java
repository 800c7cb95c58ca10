package io.mixflame.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDKs child-JVM tests run on: the one running the tests, and each home listed in the system property
 * {@code mixflame.test.jdks} (the build sets it when the machine has a second JDK). A listed home that does not
 * exist fails the test run rather than being skipped.
 */
public final class TestJdks {
    private TestJdks() {
    }

    /** Java homes, the running one first. */
    public static List<Path> all() {
        List<Path> homes = new ArrayList<>();
        homes.add(Path.of(System.getProperty("java.home")));
        String extra = System.getProperty("mixflame.test.jdks", "");
        for (String home : extra.split(",")) {
            if (home.isBlank()) {
                continue;
            }
            Path p = Path.of(home.trim());
            if (!Files.isExecutable(p.resolve("bin/java"))) {
                throw new IllegalStateException("mixflame.test.jdks names " + p + " but it has no bin/java");
            }
            if (!homes.contains(p)) {
                homes.add(p);
            }
        }
        return homes;
    }

    /** The homes as a stream, for {@code @MethodSource("io.mixflame.testsupport.TestJdks#homes")}. */
    public static java.util.stream.Stream<Path> homes() {
        return all().stream();
    }

    /**
     * Each home with the user to run it as, alternating from {@code first} (0: the first home as root, the second
     * as {@code nobody}; 1: the other way round), so that two tests between them cover each pair.
     */
    public static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> crosswise(int first) {
        List<Path> homes = all();
        List<org.junit.jupiter.params.provider.Arguments> pairs = new ArrayList<>();
        for (int i = 0; i < homes.size(); i++) {
            pairs.add(org.junit.jupiter.params.provider.Arguments.of(homes.get(i),
                    (i + first) % 2 == 0 ? "root" : "nobody"));
        }
        return pairs.stream();
    }

    /** The first home as root, the second as {@code nobody}: for {@code @MethodSource}. */
    public static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> crosswise() {
        return crosswise(0);
    }

    /** The running JDK alone, for {@code @MethodSource}: a check that needs one JDK, not each. */
    public static java.util.stream.Stream<Path> runningOnly() {
        return java.util.stream.Stream.of(running());
    }

    /** The newest JDK alone, for {@code @MethodSource}: a check that needs one JDK, not each. */
    public static java.util.stream.Stream<Path> newestOnly() {
        return java.util.stream.Stream.of(newest());
    }

    /** The JDK running the tests, which is also the one the README's commands use. */
    public static Path running() {
        return all().get(0);
    }

    /** The last home listed, or the running one when none is. */
    public static Path newest() {
        List<Path> homes = all();
        return homes.get(homes.size() - 1);
    }

    /**
     * Each of {@code variants} once, on the homes in turn (the first variant on the running JDK, the second on the
     * next, ...): for checks whose subject is the variant (an engine, an interval, a route into the profiler) rather
     * than the JVM, so that each variant is tested once and every JDK still carries some. With one home, all run on
     * it.
     */
    public static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> spread(Object... variants) {
        List<Path> homes = all();
        List<org.junit.jupiter.params.provider.Arguments> runs = new ArrayList<>();
        for (int i = 0; i < variants.length; i++) {
            runs.add(org.junit.jupiter.params.provider.Arguments.of(homes.get(i % homes.size()), variants[i]));
        }
        return runs.stream();
    }

    /** The {@code java} launcher of a home. */
    public static Path java(Path home) {
        return home.resolve("bin/java");
    }
}
