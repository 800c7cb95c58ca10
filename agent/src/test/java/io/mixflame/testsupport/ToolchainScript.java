package io.mixflame.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the project's set-up scripts in {@code .ci/} ({@code windows-toolchain}, {@code browser-toolchain}): it
 * installs what is missing, then prints {@code key=value} lines, or one failure line and a non-zero exit. Tests that
 * need what it installs turn a failure into JUnit's not-run with that line as the reason, never into a pass.
 */
public final class ToolchainScript {
    private ToolchainScript() {
    }

    /** What a run of the script gave: its values, or (when it failed) the reason and no values. */
    public record Outcome(Map<String, String> values, String failure) {
        /** A value the script must print on success; a missing one is the script's bug and fails loudly. */
        public String value(String key) {
            String v = values.get(key);
            if (v == null || v.isEmpty()) {
                throw new IllegalStateException("the set-up script printed no " + key + "=: " + values);
            }
            return v;
        }
    }

    /** Runs {@code .ci/NAME} with no input; one that outlasts the timeout is killed and counts as failed. */
    public static Outcome run(String name, Duration timeout) {
        Path script = BuiltJars.projectRoot().resolve(".ci").resolve(name);
        try {
            Path output = Files.createTempFile(name, ".txt");
            try {
                Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                        .start();
                if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                    return failed(script + " did not finish within " + timeout);
                }
                List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
                if (p.exitValue() != 0) {
                    return failed(lines.isEmpty() ? "exit status " + p.exitValue() + ", no output"
                            : lines.get(lines.size() - 1));
                }
                return new Outcome(values(lines), null);
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            return failed("running " + script + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed("interrupted while running " + script);
        }
    }

    /** The {@code key=value} lines among a script's output. */
    public static Map<String, String> values(List<String> lines) {
        Map<String, String> values = new HashMap<>();
        for (String line : lines) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values;
    }

    private static Outcome failed(String reason) {
        return new Outcome(Map.of(), reason);
    }

    private static java.io.File nullDevice() {
        return new java.io.File("/dev/null");
    }
}
