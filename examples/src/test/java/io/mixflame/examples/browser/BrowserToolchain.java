package io.mixflame.examples.browser;

import io.mixflame.testsupport.ToolchainScript;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Chromium and its ChromeDriver, installed where missing and found by {@code .ci/browser-toolchain}, which
 * runs once per test JVM. A test calls {@link #require()}: where they cannot be had, the test is aborted with the
 * script's reason and so reported as not run, never as passed.
 */
public record BrowserToolchain(Path chromium, Path chromedriver, String version) {
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(20);
    private static ToolchainScript.Outcome outcome;

    /** The browser, set up on first use; aborts the calling test (JUnit's not-run) with the reason if it cannot. */
    public static BrowserToolchain require() {
        ToolchainScript.Outcome o = outcome();
        Assumptions.assumeTrue(o.failure() == null, () -> "Chromium unavailable: " + o.failure());
        return new BrowserToolchain(Path.of(o.value("chromium")), Path.of(o.value("chromedriver")),
                o.value("version"));
    }

    private static synchronized ToolchainScript.Outcome outcome() {
        if (outcome == null) {
            outcome = ToolchainScript.run("browser-toolchain", SETUP_TIMEOUT);
        }
        return outcome;
    }
}
