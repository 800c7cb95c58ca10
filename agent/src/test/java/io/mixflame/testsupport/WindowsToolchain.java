package io.mixflame.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * What the Windows tests run on — wine64, MinGW-w64's C compiler, a Windows JRE and a Wine prefix of the project's
 * own — installed where missing and found by {@code .ci/windows-toolchain}, which runs once per test JVM. A test
 * calls {@link #require()}: where the toolchain cannot be had, the test is aborted with the script's reason and so
 * reported as not run, never as passed.
 *
 * <p>Windows programs end their lines with {@code \r\n}; what {@link #runUnderWine} returns is left as they wrote it.
 */
public final class WindowsToolchain {
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(30);
    private static final java.nio.charset.Charset WINDOWS_1252 = java.nio.charset.Charset.forName("windows-1252");
    private static Availability availability;

    private final Path wine64;
    private final Path prefix;
    private final Path mingwGcc;
    private final Path javaExe;

    WindowsToolchain(Path wine64, Path prefix, Path mingwGcc, Path javaExe) {
        this.wine64 = wine64;
        this.prefix = prefix;
        this.mingwGcc = mingwGcc;
        this.javaExe = javaExe;
    }

    /** The set-up script's outcome: a toolchain, or why there is none. */
    private record Availability(WindowsToolchain toolchain, String reason) {
    }

    /**
     * The toolchain, set up on first use; aborts the calling test (JUnit's not-run) with the reason if it cannot
     * be had.
     */
    public static WindowsToolchain require() {
        Availability a = availability();
        Assumptions.assumeTrue(a.toolchain() != null, () -> "Windows toolchain unavailable: " + a.reason());
        return a.toolchain();
    }

    private static synchronized Availability availability() {
        if (availability == null) {
            availability = setUp();
        }
        return availability;
    }

    private static Availability setUp() {
        ToolchainScript.Outcome outcome = ToolchainScript.run("windows-toolchain", SETUP_TIMEOUT);
        if (outcome.failure() != null) {
            return new Availability(null, outcome.failure());
        }
        try {
            return new Availability(of(outcome), null);
        } catch (IllegalStateException e) {
            return new Availability(null, e.getMessage());
        }
    }

    /** The script's {@code key=value} lines; a missing key is the script's bug and fails loudly. */
    static WindowsToolchain parse(List<String> lines) {
        return of(new ToolchainScript.Outcome(ToolchainScript.values(lines), null));
    }

    private static WindowsToolchain of(ToolchainScript.Outcome outcome) {
        return new WindowsToolchain(Path.of(outcome.value("wine64")), Path.of(outcome.value("wineprefix")),
                Path.of(outcome.value("mingw-gcc")), Path.of(outcome.value("java-exe")));
    }

    /** Wine's 64-bit loader: {@code wine64 PROGRAM.exe ARGS}. */
    public Path wine64() {
        return wine64;
    }

    /** The Wine prefix the tests' programs run in. */
    public Path prefix() {
        return prefix;
    }

    /** {@code x86_64-w64-mingw32-gcc}. */
    public Path mingwGcc() {
        return mingwGcc;
    }

    /** The Windows JRE's {@code java.exe} (a Linux path; run it with {@link #wine64()}). */
    public Path javaExe() {
        return javaExe;
    }

    /** The environment Wine needs: this prefix, no debug channels, no Mono or Gecko installers asking. */
    public Map<String, String> environment() {
        return Map.of("WINEPREFIX", prefix.toString(), "WINEDEBUG", "-all", "WINEDLLOVERRIDES", "mscoree,mshtml=");
    }

    /** A Linux path as a Windows program under this Wine sees it: on drive Z:, Wine's view of the root. */
    public String windowsPath(Path linuxPath) {
        return "Z:" + linuxPath.toAbsolutePath().normalize().toString().replace('/', '\\');
    }

    /**
     * The Linux file a Windows path names: the drive through the prefix's {@code dosdevices} links ({@code Z:} to
     * {@code /}, {@code C:} to the prefix's {@code drive_c}), each name matched without regard to case as Windows
     * does (Wine reports {@code C:\windows\system32\...} in whatever case the program asked).
     */
    public Path linuxPath(String windowsPath) {
        if (windowsPath.length() < 3 || windowsPath.charAt(1) != ':' || windowsPath.charAt(2) != '\\') {
            throw new IllegalArgumentException("not an absolute Windows path: " + windowsPath);
        }
        Path drive = prefix.resolve("dosdevices")
                .resolve(Character.toLowerCase(windowsPath.charAt(0)) + ":");
        Path at = drive;
        for (String name : windowsPath.substring(3).split("\\\\")) {
            if (!name.isEmpty()) {
                at = childIgnoringCase(at, name);
            }
        }
        return at;
    }

    private static Path childIgnoringCase(Path dir, String name) {
        Path exact = dir.resolve(name);
        if (Files.exists(exact, LinkOption.NOFOLLOW_LINKS) || !Files.isDirectory(dir)) {
            return exact;
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(c -> c.getFileName().toString().toLowerCase(Locale.ROOT)
                    .equals(name.toLowerCase(Locale.ROOT))).findFirst().orElse(exact);
        } catch (IOException e) {
            return exact;
        }
    }

    /** Compiles C sources with MinGW-w64's gcc; fails the test with the compiler's output if it fails. */
    public void compile(Path dir, List<String> gccArguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(mingwGcc.toString());
        command.addAll(gccArguments);
        CommandRun run = run(new ProcessBuilder(command), dir, "gcc", Duration.ofMinutes(5));
        if (run.status() != 0) {
            throw new AssertionError("x86_64-w64-mingw32-gcc failed (" + run.status() + "): " + command + "\n"
                    + run.stdout() + run.stderr());
        }
    }

    /**
     * Runs {@code wine64 ARGS} in {@code dir} with this prefix, output in {@code NAME.stdout.txt} and
     * {@code NAME.stderr.txt} there; a run that outlasts the timeout is killed and fails the test.
     */
    public CommandRun runUnderWine(Path dir, String name, Duration timeout, List<String> args)
            throws IOException, InterruptedException {
        return run(wine(args), dir, name, timeout);
    }

    /** {@code wine64 ARGS} with this prefix and no display. */
    private ProcessBuilder wine(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(wine64.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeAll(List.of("DISPLAY", "WAYLAND_DISPLAY"));
        builder.environment().putAll(environment());
        return builder;
    }

    /**
     * Starts {@code wine64 ARGS} in {@code dir} with this prefix and returns at once; its output goes to
     * {@code NAME.stdout.txt} and {@code NAME.stderr.txt} there. The caller ends it.
     */
    public Process startUnderWine(Path dir, String name, List<String> args) throws IOException {
        return wine(args).directory(dir.toFile()).redirectOutput(dir.resolve(name + ".stdout.txt").toFile())
                .redirectError(dir.resolve(name + ".stderr.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
    }

    /**
     * Waits until what a program started by {@link #startUnderWine} wrote matches {@code pattern}, and returns the
     * match (its whole output is {@code match.group(0)}'s source); fails the test if the program ends first or the
     * timeout passes.
     */
    public static java.util.regex.Matcher awaitOutput(Process program, Path dir, String name,
                                                      java.util.regex.Pattern pattern, Duration timeout)
            throws IOException, InterruptedException {
        Path out = dir.resolve(name + ".stdout.txt");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String text = Files.exists(out) ? windowsText(out) : "";
            java.util.regex.Matcher m = pattern.matcher(text);
            if (m.find()) {
                return m;
            }
            if (!program.isAlive()) {
                throw new AssertionError(name + " ended before printing /" + pattern + "/: " + text
                        + windowsText(dir.resolve(name + ".stderr.txt")));
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError(name + " never printed /" + pattern + "/: "
                + (Files.exists(out) ? windowsText(out) : ""));
    }

    /** Ends a program started by {@link #startUnderWine}, and what it started. */
    public static void end(Process program) throws InterruptedException {
        kill(program);
    }

    private static CommandRun run(ProcessBuilder builder, Path dir, String name, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path out = dir.resolve(name + ".stdout.txt");
        Path err = dir.resolve(name + ".stderr.txt");
        Process p = builder.directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill(p);
            throw new AssertionError(builder.command() + " still running after " + timeout + ", killed\nstdout: "
                    + windowsText(out) + "\nstderr: " + windowsText(err));
        }
        return new CommandRun(p.exitValue(), windowsText(out), windowsText(err));
    }

    /**
     * What a Windows program wrote to a file or pipe: text in its ANSI code page (windows-1252 in this prefix, as
     * a Windows JVM's {@code stdout.encoding} is when its output is not a console), not UTF-8.
     */
    public static String windowsText(Path file) throws IOException {
        return new String(Files.readAllBytes(file), WINDOWS_1252);
    }

    private static void kill(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
    }

    private static java.io.File nullDevice() {
        return new java.io.File("/dev/null");
    }
}
