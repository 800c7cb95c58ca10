package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs one workload from the examples jar without a profiler, checks it exited with 0, and reads its output. */
final class ExampleRun {
    private final String stdout;

    private ExampleRun(String stdout) {
        this.stdout = stdout;
    }

    /** {@code java -jar mixflame-examples.jar ARGS} on the given JDK, in {@code dir}. */
    static ExampleRun run(Path jdk, Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("-jar", BuiltJars.examples().toString()));
        command.addAll(List.of(args));
        try (ChildJvm child = ChildJvm.start(jdk, dir, command)) {
            assertThat(child.awaitExit(Duration.ofSeconds(120))).as("exit status; stderr: %s", child.stderr()).isZero();
            return new ExampleRun(child.stdout());
        }
    }

    String stdout() {
        return stdout;
    }

    /** The number in the first group of {@code regex}'s first match; fails when it does not match. */
    long number(String regex) {
        Matcher m = Pattern.compile(regex).matcher(stdout);
        assertThat(m.find()).as("output matching /%s/:\n%s", regex, stdout).isTrue();
        return Long.parseLong(m.group(1));
    }
}
