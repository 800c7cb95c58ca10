package io.mixflame.testsupport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A child JVM running one of the test apps, with its stdout read line by line. */
public final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;

    private ChildProcess(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts {@code java [jvmOptions] -cp test-classes:CLASSPATH mainClass args}. */
    public static ChildProcess java(Path jdk, List<String> jvmOptions, String mainClass, String... args)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(jdk.resolve("bin/java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(Path.of("target/test-classes").toAbsolutePath() + java.io.File.pathSeparator
                + System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return new ChildProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** The JDKs to test on: the running one and those listed in {@code mixflame.test.jdks}. */
    public static Stream<Path> jdks() {
        Stream<Path> running = Stream.of(Path.of(System.getProperty("java.home")));
        String extra = System.getProperty("mixflame.test.jdks", "");
        return Stream.concat(running, Stream.of(extra.split(",")).filter(s -> !s.isBlank()).map(Path::of)).distinct();
    }

    public long pid() {
        return process.pid();
    }

    /** Writes a line to the child's stdin. */
    public void send(String line) throws java.io.IOException {
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /** Waits for the child to exit; returns its status. */
    public int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("child still running after " + seconds + " s");
        }
        return process.exitValue();
    }

    /** Reads lines until one starts with {@code prefix}, returning the lines read (that one last). */
    public List<String> readUntil(String prefix) throws Exception {
        List<String> lines = new ArrayList<>();
        for (String line; (line = out.readLine()) != null; ) {
            lines.add(line);
            if (line.startsWith(prefix)) {
                return lines;
            }
        }
        throw new AssertionError("child ended before printing '" + prefix + "': " + lines);
    }

    /** The thread of the child whose kernel name is {@code name}. */
    public long threadNamed(String name) throws Exception {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                    return Long.parseLong(task.getFileName().toString());
                }
            }
        }
        throw new AssertionError("no thread " + name + " in " + pid());
    }

    @Override
    public void close() throws Exception {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
