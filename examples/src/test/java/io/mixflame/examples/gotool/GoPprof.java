package io.mixflame.examples.gotool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code go tool pprof} on a profile file and gives back its report as text, as a person at a terminal reads
 * it. Symbolization is off: every mapping of ours says its functions are named, and a report must not depend on the
 * binaries being on this machine.
 */
public final class GoPprof {
    private static final long TIMEOUT_SECONDS = 120;

    private final GoToolchain go;
    private final Path workDir;

    /**
     * @param go      the toolchain
     * @param workDir where pprof may write (its home for the run: it keeps its own files under {@code $HOME/pprof})
     */
    public GoPprof(GoToolchain go, Path workDir) {
        this.go = go;
        this.workDir = workDir;
    }

    /**
     * The report that {@code go tool pprof -symbolize=none OPTIONS... FILE} prints.
     *
     * @throws AssertionError when pprof fails or outlasts its time: the file is not one it reads
     */
    public String report(Path profile, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(go.go().toString(), "tool", "pprof", "-symbolize=none"));
        command.addAll(List.of(options));
        command.add(profile.toString());
        Path output = Files.createTempFile(workDir, "pprof", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().put("HOME", workDir.toString());
        builder.environment().put("GOCACHE", workDir.resolve("gocache").toString());
        Process p = builder.start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited with " + p.exitValue() + ":\n" + text);
        }
        return text;
    }
}
