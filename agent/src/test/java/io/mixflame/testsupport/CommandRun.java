package io.mixflame.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A finished run of {@code java -jar mixflame.jar …}.
 *
 * @param status the exit status
 * @param stdout what it printed
 * @param stderr what it printed as errors
 */
public record CommandRun(int status, String stdout, String stderr) {

    /** Runs the tool from the built jar with the given home's java and waits for it. */
    public static CommandRun tool(Path javaHome, Path dir, List<String> args) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> command = new java.util.ArrayList<>(List.of("-jar", BuiltJars.agent().toString()));
        command.addAll(args);
        try (ChildJvm child = ChildJvm.start(javaHome, dir, command)) {
            int status = child.awaitExit(Duration.ofSeconds(60));
            return new CommandRun(status, Files.readString(dir.resolve("stdout.txt"), StandardCharsets.UTF_8),
                    Files.readString(dir.resolve("stderr.txt"), StandardCharsets.UTF_8));
        }
    }
}
