package io.mixflame.examples.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One finished run of a workload in its own JVM, under one profiler.
 *
 * @param profiler  the profiler it ran under
 * @param workload  the workload's command line after the jar
 * @param dir       where its output and profile are
 * @param status    exit status, or -1 when it was killed for taking too long
 * @param stdout    what it printed
 * @param stderr    what it printed as errors
 * @param wallNanos from start to exit
 * @param cpuMillis the whole process's CPU time
 */
record ChildRun(Profiler profiler, List<String> workload, Path dir, int status, String stdout, String stderr,
                long wallNanos, long cpuMillis) {

    /** Whether it exited with 0. */
    boolean succeeded() {
        return status == 0;
    }

    /** The profile it wrote, or null without a profiler. */
    Path profileFile() {
        return profiler.outputIn(dir);
    }

    /**
     * Runs {@code java [profiler options] -jar EXAMPLES WORKLOAD…} in {@code dir} and waits, killing it after
     * {@code timeout}.
     */
    static ChildRun run(Path java, Path examplesJar, Profiler profiler, List<String> profilerOptions,
                        List<String> workload, Path dir, Duration timeout) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(profilerOptions);
        command.add("-jar");
        command.add(examplesJar.toString());
        command.addAll(workload);
        Files.writeString(dir.resolve("command.txt"), String.join(" ", command) + "\n");
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        long cpuBefore = ChildCpuTime.millis();
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int status;
        if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            status = p.exitValue();
        } else {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            status = -1;
        }
        long wall = System.nanoTime() - start;
        long cpu = ChildCpuTime.millis() - cpuBefore;
        return new ChildRun(profiler, List.copyOf(workload), dir, status, Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), wall, cpu);
    }

    /** One line saying why it failed, for the report. */
    String failure() {
        String last = stderr.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("");
        return profiler.label() + " " + String.join(" ", workload) + ": "
                + (status == -1 ? "killed after the time limit" : "exit " + status) + (last.isEmpty() ? "" : ": " + last)
                + " (" + dir + ")";
    }
}
