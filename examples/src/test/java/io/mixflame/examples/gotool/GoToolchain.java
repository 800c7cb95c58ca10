package io.mixflame.examples.gotool;

import io.mixflame.testsupport.ToolchainScript;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Go, installed where missing and found by {@code .ci/go-toolchain}, which runs once per test JVM: its
 * {@code go tool pprof} is the pprof reader our files are checked with. A test calls {@link #require()}: where Go
 * cannot be had, the test is aborted with the script's reason and so reported as not run, never as passed.
 */
public record GoToolchain(Path go, String version) {
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(20);
    private static ToolchainScript.Outcome outcome;

    /** Go, set up on first use; aborts the calling test (JUnit's not-run) with the reason if it cannot. */
    public static GoToolchain require() {
        ToolchainScript.Outcome o = outcome();
        Assumptions.assumeTrue(o.failure() == null, () -> "Go unavailable: " + o.failure());
        return new GoToolchain(Path.of(o.value("go")), o.value("version"));
    }

    private static synchronized ToolchainScript.Outcome outcome() {
        if (outcome == null) {
            outcome = ToolchainScript.run("go-toolchain", SETUP_TIMEOUT);
        }
        return outcome;
    }
}
