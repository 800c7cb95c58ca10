package io.mixflame.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A test program of {@code io.mixflame.testapp} profiled with {@code threads} by the agent in a JVM of its own
 * (perhaps as another user, under a seccomp filter), and what came of it: each thread's samples, the CPU time the
 * kernel counted for each (the program's {@code cpu NAME NANOS} lines), the {@code [unknown]} samples, and the note's
 * lost and dropped counts. The profile is judged against the kernel's count, not against another profiler.
 *
 * @param header        the profile's first line, which names the engine
 * @param samples       samples per thread name
 * @param cpu           the CPU time the program printed per thread name, in nanoseconds
 * @param total         every sample
 * @param unknown       samples with an {@code [unknown]} frame
 * @param unknownStacks the most frequent of those, for a failure's message
 * @param noteSamples   the note's count of samples
 * @param lost          the note's lost samples
 * @param dropped       the note's dropped samples
 * @param lines         the profile's stack lines
 */
public record PoolProfile(String header, Map<String, Long> samples, Map<String, Long> cpu, long total, long unknown,
                          String unknownStacks, long noteSamples, long lost, long dropped, List<String> lines) {
    private static final Pattern THREAD_ROOT = Pattern.compile("^\\[([^\\]]+?) tid=\\d+\\]");
    private static final Pattern CPU_LINE = Pattern.compile("(?m)^cpu (\\S+) (-?\\d+)$");
    private static final Pattern NOTE_COUNTS = Pattern.compile("# note: (\\d+) samples, (\\d+) lost, (\\d+) dropped");

    /**
     * The prefix that runs a JVM as {@code user} under a filter refusing {@code syscalls} (none when null), maybe
     * with a signal blocked in every thread; skipped, saying why, where the test cannot run as that user.
     */
    public static List<String> prefix(Path dir, String user, String syscalls, String blockedSignal) throws Exception {
        Assumptions.assumeTrue(user.equals("root") && syscalls == null || SeccompLauncher.canRunAs(user),
                "not run: needs root, runuser and a user " + user);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> prefix = new ArrayList<>();
        if (!user.equals("root")) {
            prefix.addAll(List.of("runuser", "-u", user, "--"));
        }
        if (blockedSignal != null) {
            prefix.addAll(List.of("env", "DENY_BLOCK_SIGNAL=" + blockedSignal));
        }
        if (syscalls != null) {
            prefix.addAll(SeccompLauncher.build(dir).prefix("root", syscalls));
        }
        return prefix;
    }

    /**
     * Runs {@code io.mixflame.testapp.APP args} under the agent with {@code event=cpu,OPTIONS,threads}, in a folder
     * {@code name} of {@code dir} that any user may write, and reads its profile.
     */
    public static PoolProfile run(Path dir, List<String> prefix, Path jdk, String name, String app, String options,
                                  List<String> jvmOptions, String... args) throws Exception {
        Launched run = launch(dir, prefix, jdk, name, app, "event=cpu," + options, jvmOptions, args);
        return read(run.profile(), run.stdout());
    }

    /** A program's run under the agent: its profile and what it printed. */
    public record Launched(Path profile, String stdout) {
    }

    /**
     * Runs {@code io.mixflame.testapp.APP args} under the agent with {@code OPTIONS,threads}, in a folder {@code name}
     * of {@code dir} that any user may write; fails unless it exited with 0 having printed {@code done}.
     */
    public static Launched launch(Path dir, List<String> prefix, Path jdk, String name, String app, String options,
                                  List<String> jvmOptions, String... args) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path agent = dir.resolve("mixflame.jar");
        Path classes = dir.resolve("classes");
        if (!Files.exists(agent)) {
            Files.copy(BuiltJars.agent(), agent, StandardCopyOption.REPLACE_EXISTING);
            Path target = Files.createDirectories(classes.resolve("io/mixflame/testapp"));
            Path built = Path.of("target/test-classes/io/mixflame/testapp").toAbsolutePath();
            try (Stream<Path> compiled = Files.list(built)) {
                for (Path c : compiled.toList()) {
                    Files.copy(c, target.resolve(c.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Path runDir = Files.createDirectories(dir.resolve(name));
        Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path out = runDir.resolve("profile.collapsed");
        List<String> command = new ArrayList<>(jvmOptions);
        command.addAll(List.of("-javaagent:" + agent + "=start," + options + ",threads,file=" + out,
                "-cp", classes.toString(), "io.mixflame.testapp." + app));
        command.addAll(List.of(args));
        try (ChildJvm jvm = ChildJvm.start(prefix, jdk, runDir, command)) {
            assertThat(jvm.awaitExit(Duration.ofMinutes(3))).as(jvm.stderr()).isZero();
            assertThat(jvm.stdout()).as(jvm.stderr()).contains("done");
            return new Launched(out, jvm.stdout());
        }
    }

    /** The profile at {@code profile}, with the CPU times the program printed on {@code stdout}. */
    public static PoolProfile read(Path profile, String stdout) throws IOException {
        String header = "";
        Map<String, Long> samples = new HashMap<>();
        long total = 0;
        long unknown = 0;
        List<String> unknownLines = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        long noteSamples = 0;
        long lost = 0;
        long dropped = 0;
        for (String line : Files.readAllLines(profile, StandardCharsets.UTF_8)) {
            if (line.startsWith("# mixflame ")) {
                header = line;
            }
            Matcher note = NOTE_COUNTS.matcher(line);
            if (note.find()) {
                System.out.println(line);
                noteSamples = Long.parseLong(note.group(1));
                lost = Long.parseLong(note.group(2));
                dropped = Long.parseLong(note.group(3));
            }
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            lines.add(line);
            long n = count(line);
            total += n;
            if (line.contains("[unknown]")) {
                unknown += n;
                unknownLines.add(line);
            }
            Matcher root = THREAD_ROOT.matcher(line);
            if (root.find()) {
                samples.merge(root.group(1), n, Long::sum);
            }
        }
        Map<String, Long> cpu = new HashMap<>();
        Matcher m = CPU_LINE.matcher(stdout);
        while (m.find()) {
            cpu.put(m.group(1), Long.parseLong(m.group(2)));
        }
        unknownLines.sort(Comparator.comparingLong(PoolProfile::count).reversed());
        String unknownStacks = String.join("\n", unknownLines.subList(0, Math.min(5, unknownLines.size())));
        System.out.println("[unknown] " + unknown + " of " + total + (unknown == 0 ? "" : ":\n" + unknownStacks));
        return new PoolProfile(header, samples, cpu, total, unknown, unknownStacks, noteSamples, lost, dropped,
                lines);
    }

    /** A stack line's count, its last field. */
    public static long count(String line) {
        return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }

    /** The samples of threads whose names start with {@code prefix}. */
    public long samplesOf(String prefix) {
        return samples.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * Checks that every thread the program counted CPU for, with CPU worth three intervals or more, has a sample, but
     * for as many as chance leaves unnamed: a sampler taking one sample per interval of CPU time at random leaves a
     * thread of c intervals without one with a chance of exp(-c); allowed are as many as that expects and four
     * standard deviations more.
     */
    public void assertWorkersNamed(long intervalNanos) {
        assertWorkersNamed(intervalNanos, 1);
    }

    /**
     * As {@link #assertWorkersNamed(long)}, for a sampler whose samples stand for the part {@code coverage} of the CPU
     * time the kernel counted: a thread of c intervals goes without a sample with a chance of exp(-coverage c).
     */
    public void assertWorkersNamed(long intervalNanos, double coverage) {
        assertWorkersNamed("", intervalNanos, coverage);
    }

    /** As {@link #assertWorkersNamed(long, double)}, for the threads whose names start with {@code prefix}. */
    public void assertWorkersNamed(String prefix, long intervalNanos, double coverage) {
        double unnamedExpected = 0;
        int qualifying = 0;
        List<String> unnamed = new ArrayList<>();
        for (Map.Entry<String, Long> e : cpu.entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                continue;
            }
            double intervals = e.getValue() / (double) intervalNanos;
            if (intervals >= 3) {
                qualifying++;
                unnamedExpected += Math.exp(-coverage * intervals);
                if (samples.getOrDefault(e.getKey(), 0L) == 0) {
                    unnamed.add(e.getKey() + " (" + e.getValue() / 1_000_000 + " ms)");
                }
            }
        }
        double allowed = unnamedExpected + 4 * Math.sqrt(unnamedExpected);
        assertThat((double) unnamed.size()).as("threads%s of %s with CPU of 3 intervals or more and no sample: %s",
                prefix.isEmpty() ? "" : " " + prefix + "*", qualifying, unnamed).isLessThanOrEqualTo(allowed);
    }

    /**
     * The part of the CPU time the program counted for the threads whose names start with {@code prefix} that their
     * samples stand for, at one interval each.
     */
    public double coverage(String prefix, long intervalNanos) {
        long nanos = cpu.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(Map.Entry::getValue)
                .sum();
        return nanos == 0 ? 0 : samplesOf(prefix) * (double) intervalNanos / nanos;
    }

    /** Checks that lost and dropped samples are under 1% of the note's, and {@code [unknown]} under 0.5%. */
    public void assertKeptAndKnown() {
        assertKept();
        assertThat(unknown).as("[unknown] samples of %s, the most of them in:\n%s", total, unknownStacks)
                .isLessThan(Math.max(1, total / 200));
    }

    /** Checks that lost and dropped samples are under 1% of the note's. */
    public void assertKept() {
        assertThat(lost + dropped).as("lost (%s) and dropped (%s) of %s", lost, dropped, noteSamples)
                .isLessThan(Math.max(1, noteSamples / 100));
    }

    /** Checks that under 0.5% of the samples of threads whose names start with {@code prefix} are {@code [unknown]}. */
    public void assertKnown(String prefix) {
        long of = 0;
        long unknownOf = 0;
        List<String> shown = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("[" + prefix)) {
                of += count(line);
                if (line.contains("[unknown]")) {
                    unknownOf += count(line);
                    shown.add(line);
                }
            }
        }
        // Under 0.5% exactly: of / 200, rounded down, would allow 3 of 930 where 4 is under 0.5%.
        assertThat(unknownOf * 200).as("200 times the [unknown] samples of %s of %s's: %s", of, prefix, shown)
                .isLessThan(Math.max(1, of));
    }
}
