package io.mixflame.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started by a test, its output captured to files so that nothing blocks on a full pipe. Closing it kills
 * it if it still runs.
 */
public final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildJvm(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * Starts {@code java ARGS} from a given home, with output in {@code dir}.
     *
     * @param javaHome the JDK to run
     * @param dir      where stdout.txt and stderr.txt go
     * @param args     everything after {@code java}
     */
    public static ChildJvm start(Path javaHome, Path dir, List<String> args) throws IOException {
        return start(List.of(), javaHome, dir, args);
    }

    /**
     * Starts {@code PREFIX java ARGS}: the JVM run through another command, such as {@code runuser -u nobody --} to
     * run it as another user, or {@code prlimit} to lower its limits.
     */
    public static ChildJvm start(List<String> prefix, Path javaHome, Path dir, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(TestJdks.java(javaHome).toString());
        command.addAll(args);
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new ChildJvm(p, out, err);
    }

    /** The child's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether it still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until stdout contains {@code text}; fails if the child exits first or the time runs out. */
    public void awaitOutput(String text, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (stdout().contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError("child exited with " + process.exitValue() + " before printing '" + text
                        + "'\nstdout: " + stdout() + "\nstderr: " + stderr());
            }
            Thread.sleep(50);
        }
        throw new AssertionError("child did not print '" + text + "' within " + timeout + "\nstdout: " + stdout()
                + "\nstderr: " + stderr());
    }

    /** Waits for the child to exit and returns its status; fails if it takes longer than the timeout. */
    public int awaitExit(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child still running after " + timeout + "\nstdout: " + stdout()
                    + "\nstderr: " + stderr());
        }
        return process.exitValue();
    }

    /** Closes the child's standard input: a child that reads it to its end learns that it is time to finish. */
    public void endInput() throws IOException {
        process.getOutputStream().close();
    }

    /** Everything the child wrote to stdout so far. */
    public String stdout() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    /** Everything the child wrote to stderr so far. */
    public String stderr() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        // A JVM started through another command (runuser, prlimit) is that command's child: killed first.
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
