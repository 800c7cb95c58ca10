package io.mixflame.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A launcher that runs a command under a seccomp filter refusing the system calls named with EACCES, as a container's
 * default profile refuses {@code perf_event_open}: built with gcc at test time from the test resource
 * {@code native/seccomp/deny.c}, and the command prefixes to run a JVM under it, as root or as another user.
 */
public final class SeccompLauncher {
    private final Path executable;

    private SeccompLauncher(Path executable) {
        this.executable = executable;
    }

    /** Builds the launcher into {@code dir} (readable and runnable by every user). */
    public static SeccompLauncher build(Path dir) throws IOException, InterruptedException {
        Path source = dir.resolve("deny.c");
        try (InputStream in = SeccompLauncher.class.getResourceAsStream("/native/seccomp/deny.c")) {
            if (in == null) {
                throw new IOException("no native/seccomp/deny.c on the test class path");
            }
            Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
        }
        Path executable = dir.resolve("deny");
        Process gcc = new ProcessBuilder("gcc", "-O1", "-o", executable.toString(), source.toString())
                .redirectErrorStream(true).start();
        String out = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!gcc.waitFor(120, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
            throw new IOException("gcc could not build the seccomp launcher: " + out);
        }
        return new SeccompLauncher(executable);
    }

    /**
     * The prefix that runs a command as {@code user} ("root" for no change) under a filter refusing {@code denied}
     * (comma-separated system call names).
     */
    public List<String> prefix(String user, String denied) {
        List<String> prefix = new ArrayList<>();
        if (!user.equals("root")) {
            prefix.addAll(List.of("runuser", "-u", user, "--"));
        }
        prefix.addAll(List.of(executable.toString(), denied, "--"));
        return prefix;
    }

    /**
     * Whether commands can be run as {@code user} here (root running runuser, the user present); a test that needs
     * it says "not run" otherwise.
     */
    public static boolean canRunAs(String user) throws IOException, InterruptedException {
        return user.equals("root") || new ProcessBuilder("id", user).start().waitFor() == 0
                && new ProcessBuilder("sh", "-c", "command -v runuser").start().waitFor() == 0
                && "root".equals(System.getProperty("user.name"));
    }
}
