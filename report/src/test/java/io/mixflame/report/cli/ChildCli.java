package io.mixflame.report.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A report command run by {@link CliMain} in a JVM of its own, its output in files so nothing blocks on a
 * pipe. The waits below only keep a hung child from hanging the build; no test asserts on time.
 */
final class ChildCli implements AutoCloseable {

    private static final long HANG_GUARD_SECONDS = 300;

    private final Process process;
    private final Path out;
    private final Path err;

    private ChildCli(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts {@code CliMain ARGS} with at most {@code maxHeap} of heap, output files in {@code logDir}. */
    static ChildCli start(Path logDir, String maxHeap, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeap);
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(CliMain.class.getName());
        command.addAll(args);
        Files.createDirectories(logDir);
        Path out = logDir.resolve("stdout.txt");
        Path err = logDir.resolve("stderr.txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new ChildCli(p, out, err);
    }

    /** Runs a command to its end; the run's status and output. */
    static CliRun run(Path logDir, String maxHeap, List<String> args) throws IOException, InterruptedException {
        try (ChildCli child = start(logDir, maxHeap, args)) {
            int status = child.awaitExit();
            return new CliRun(status, child.out(), child.err());
        }
    }

    /** Waits for the child to end; its exit status. */
    int awaitExit() throws InterruptedException, IOException {
        if (!process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("child still runs; stderr: " + err());
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Asks the child to stop (SIGTERM: shutdown hooks run, as on Ctrl-C). */
    void terminate() {
        process.destroy();
    }

    String out() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    String err() throws IOException {
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
