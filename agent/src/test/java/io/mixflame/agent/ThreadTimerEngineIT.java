package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.SeccompLauncher;
import io.mixflame.testsupport.TestJdks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CPU profiles where a container's seccomp profile refuses {@code perf_event_open} (and {@code ptrace}), the JVM run
 * as an ordinary user: {@code engine=auto} samples each thread in its own signal handler (the timer engine), and
 * the profile is judged against the CPU time the kernel counted for each thread ({@code schedstat}, printed by the
 * test programs), not against another profiler. Threads busy 100%, 50% and 25% get shares within margins of theirs,
 * and samples stand for their CPU time (the same test also runs as root with the perf engine); a pool of workers
 * wanting 1, 5 and 50 times the cores is sampled in full, every worker named; a JVM started with {@code -Xrs}, and
 * one whose threads all block the timer's signal, run and exit as they would unprofiled.
 */
class ThreadTimerEngineIT {
    private static final Pattern THREAD_ROOT = Pattern.compile("^\\[([^\\]]+?) tid=\\d+\\]");
    private static final Pattern CPU_LINE = Pattern.compile("(?m)^cpu (\\S+) (-?\\d+)$");
    private static final Pattern NOTE_COUNTS = Pattern.compile("# note: (\\d+) samples, (\\d+) lost, (\\d+) dropped");
    private static final long DUTY_INTERVAL_NANOS = 2_000_000L;
    private static final long POOL_INTERVAL_NANOS = 5_000_000L;
    /** The margin on each share, in points, at four standard deviations of the samples' count. */
    private static final double SHARE_MARGIN = 0.03;

    @TempDir
    Path dir;

    static Stream<Arguments> dutyCycleRuns() {
        List<Path> jdks = TestJdks.all();
        List<Arguments> runs = new ArrayList<>();
        for (Path jdk : jdks) {
            runs.add(Arguments.of(jdk, "nobody", "timer"));
        }
        runs.add(Arguments.of(jdks.get(jdks.size() - 1), "root", "perf"));
        return runs.stream();
    }

    @ParameterizedTest
    @MethodSource("dutyCycleRuns")
    void threadsBusy100And50And25PercentGetTheSharesTheKernelCounted(Path jdk, String user, String engine)
            throws Exception {
        List<String> prefix = engine.equals("timer") ? denied(user, "perf_event_open", null) : List.of();
        // Four standard deviations of a share p from n samples within the margin: n >= 16 p (1 - p) / margin^2,
        // widest at one half.
        long needed = (long) Math.ceil(16 * 0.25 / (SHARE_MARGIN * SHARE_MARGIN));
        Map<String, Long> samples = new HashMap<>();
        Map<String, Long> cpu = new HashMap<>();
        long total = 0;
        for (int run = 0; total < needed && run < 6; run++) {
            Run r = run(prefix, jdk, "duty-" + run, "DutyCycleApp", "interval=2ms", List.of(), "6", "100", "50",
                    "25");
            assertThat(r.header).as("the engine that ran").contains("engine=" + engine);
            r.samples.forEach((name, n) -> samples.merge(name, n, Long::sum));
            r.cpu.forEach((name, n) -> cpu.merge(name, n, Long::sum));
            total = samples.entrySet().stream().filter(e -> e.getKey().startsWith("duty-"))
                    .mapToLong(Map.Entry::getValue).sum();
        }
        assertThat(total).as("samples of the three threads").isGreaterThanOrEqualTo(needed);
        long cpuTotal = cpu.values().stream().mapToLong(Long::longValue).sum();
        for (String name : List.of("duty-100", "duty-50", "duty-25")) {
            double expected = cpu.get(name) / (double) cpuTotal;
            double share = samples.getOrDefault(name, 0L) / (double) total;
            assertThat(share).as("%s's share of samples against its share of CPU time %s (samples %s, cpu %s)",
                    name, expected, samples, cpu).isCloseTo(expected,
                    org.assertj.core.api.Assertions.within(4 * Math.sqrt(expected * (1 - expected) / total) + 0.005));
        }
        double intervals = cpuTotal / (double) DUTY_INTERVAL_NANOS;
        assertThat((double) total).as("samples against the threads' CPU time in intervals")
                .isBetween(intervals * 0.9, intervals * 1.1);
    }

    static Stream<Arguments> pools() {
        List<Path> jdks = TestJdks.all();
        Path last = jdks.get(jdks.size() - 1);
        return Stream.of(Arguments.of(jdks.get(0), 1), Arguments.of(last, 5), Arguments.of(jdks.get(0), 50),
                Arguments.of(last, 50));
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aPoolWantingOneFiveAndFiftyTimesTheCoresIsSampledInFull(Path jdk, int times) throws Exception {
        // Each worker burns 2 ms and sleeps 5: it wants two sevenths of a core.
        int workers = times * Runtime.getRuntime().availableProcessors() * 7 / 2;
        List<String> prefix = denied("nobody", "perf_event_open,ptrace", null);
        Run r = run(prefix, jdk, "pool-" + workers, "ServicePoolApp", "interval=5ms", List.of(),
                Integer.toString(workers), "8", "2000", "5");
        assertThat(r.header).as("the engine that ran").contains("engine=timer");
        // A thread's last part of an interval is never sampled, by any sampler: each worker is owed the intervals
        // of its CPU time less one.
        double owed = 0;
        // A sampler that takes one sample per interval of CPU time at random leaves a worker of c intervals without
        // one with a chance of exp(-c): as many unnamed workers as that expects, and four standard deviations more.
        double unnamedExpected = 0;
        int qualifying = 0;
        List<String> unnamed = new ArrayList<>();
        for (Map.Entry<String, Long> e : r.cpu.entrySet()) {
            double intervals = e.getValue() / (double) POOL_INTERVAL_NANOS;
            owed += Math.max(0, intervals - 1);
            if (intervals >= 3) {
                qualifying++;
                unnamedExpected += Math.exp(-intervals);
                if (r.samples.getOrDefault(e.getKey(), 0L) == 0) {
                    unnamed.add(e.getKey() + " (" + e.getValue() / 1_000_000 + " ms)");
                }
            }
        }
        long workerSamples = r.samples.entrySet().stream().filter(e -> e.getKey().startsWith("service-pool-worker-"))
                .mapToLong(Map.Entry::getValue).sum();
        double allowed = unnamedExpected + 4 * Math.sqrt(unnamedExpected);
        assertThat((double) unnamed.size()).as("workers of %s with CPU of 3 intervals or more and no sample: %s",
                qualifying, unnamed).isLessThanOrEqualTo(allowed);
        assertThat(workerSamples > 0 && r.cpu.size() == workers).as("workers reported and sampled").isTrue();
        assertThat((double) workerSamples).as("the workers' samples against the intervals of CPU time owed")
                .isGreaterThanOrEqualTo(0.95 * owed);
        assertThat(r.lost + r.dropped).as("lost and dropped of %s", r.noteSamples)
                .isLessThan(Math.max(1, r.noteSamples / 100));
        assertThat(r.unknown).as("[unknown] samples of %s, the most of them in:\n%s", r.total, r.unknownStacks)
                .isLessThan(Math.max(1, r.total / 200));
    }

    static Stream<Arguments> safetyRuns() {
        List<Path> jdks = TestJdks.all();
        return Stream.of(Arguments.of(jdks.get(0), false), Arguments.of(jdks.get(jdks.size() - 1), true));
    }

    /**
     * {@code -Xrs} (the JVM leaves the OS's signals alone) and a JVM whose threads all start with the timer's signal
     * blocked: both run their work, exit 0 and write the profile; the blocked one has no samples, which the profile
     * shows rather than the JVM dying of a signal left pending when the timers were deleted.
     */
    @ParameterizedTest
    @MethodSource("safetyRuns")
    void aJvmWithXrsOrWithTheSignalBlockedRunsAndExitsAsUnprofiled(Path jdk, boolean blockSignal) throws Exception {
        List<String> prefix = denied("nobody", "perf_event_open", blockSignal ? "27" : null);
        Run r = run(prefix, jdk, "safety", "DutyCycleApp", "interval=1ms", List.of("-Xrs"), "2", "100", "50");
        assertThat(r.header).as("the engine that ran").contains("engine=timer");
        assertThat(r.cpu).as("the work's threads").containsKeys("duty-100", "duty-50");
        if (blockSignal) {
            assertThat(r.samples.getOrDefault("duty-100", 0L)).as("samples of a thread blocking the signal").isZero();
        } else {
            assertThat(r.samples.getOrDefault("duty-100", 0L)).as("samples of the busy thread").isGreaterThan(500);
        }
    }

    /** Virtual threads are sampled on their carriers: their frames under the carrier threads' names. */
    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void virtualThreadsAreSampledOnTheirCarriers(Path jdk) throws Exception {
        Assumptions.assumeTrue(feature(jdk) >= 21,
                "not run: virtual threads need JDK 21 or later, and " + jdk + " is older");
        List<String> prefix = denied("nobody", "perf_event_open", null);
        Path profile = dir.resolve("virtual/profile.collapsed");
        run(prefix, jdk, "virtual", "VirtualBurnApp", "interval=5ms", List.of(), "4", "8");
        long burning = 0;
        long onCarriers = 0;
        for (String line : Files.readAllLines(profile, StandardCharsets.UTF_8)) {
            if (line.contains("VirtualBurnApp.burn")) {
                long n = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
                burning += n;
                if (line.startsWith("[ForkJoinPool-")) {
                    onCarriers += n;
                }
            }
        }
        // Two cores busy for four seconds at 5 ms: some 1 600 samples, the start-up's aside.
        assertThat(burning).as("samples in the virtual threads' work").isGreaterThan(800);
        assertThat(onCarriers).as("of them under a carrier thread").isEqualTo(burning);
    }

    private static int feature(Path jdk) throws IOException {
        for (String line : Files.readAllLines(jdk.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring(line.indexOf('"') + 1);
                return Integer.parseInt(v.split("[.\"]")[0]);
            }
        }
        return 0;
    }

    /** A run's profile and what the program printed. */
    private record Run(String header, Map<String, Long> samples, Map<String, Long> cpu, long total, long unknown,
                       String unknownStacks,
                       long noteSamples, long lost, long dropped) {
    }

    /** The prefix that runs a JVM as {@code user} under a filter refusing {@code syscalls}, maybe blocking a signal. */
    private List<String> denied(String user, String syscalls, String blockedSignal) throws Exception {
        Assumptions.assumeTrue(SeccompLauncher.canRunAs(user), "not run: needs root, runuser and a user " + user);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> launcher = SeccompLauncher.build(dir).prefix("root", syscalls);
        List<String> prefix = new ArrayList<>();
        if (!user.equals("root")) {
            prefix.addAll(List.of("runuser", "-u", user, "--"));
        }
        if (blockedSignal != null) {
            prefix.addAll(List.of("env", "DENY_BLOCK_SIGNAL=" + blockedSignal));
        }
        prefix.addAll(launcher);
        return prefix;
    }

    private Run run(List<String> prefix, Path jdk, String name, String app, String options, List<String> jvmOptions,
                    String... args) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path agent = dir.resolve("mixflame.jar");
        Path classes = dir.resolve("classes");
        if (!Files.exists(agent)) {
            Files.copy(BuiltJars.agent(), agent, StandardCopyOption.REPLACE_EXISTING);
            Path target = Files.createDirectories(classes.resolve("io/mixflame/testapp"));
            try (Stream<Path> compiled = Files.list(Path.of(AttachIT.TEST_CLASSES, "io/mixflame/testapp"))) {
                for (Path c : compiled.toList()) {
                    Files.copy(c, target.resolve(c.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Path runDir = Files.createDirectories(dir.resolve(name));
        Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path out = runDir.resolve("profile.collapsed");
        List<String> command = new ArrayList<>(jvmOptions);
        command.addAll(List.of("-javaagent:" + agent + "=start,event=cpu," + options + ",threads,file=" + out,
                "-cp", classes.toString(), "io.mixflame.testapp." + app));
        command.addAll(List.of(args));
        try (ChildJvm jvm = ChildJvm.start(prefix, jdk, runDir, command)) {
            assertThat(jvm.awaitExit(Duration.ofMinutes(3))).as(jvm.stderr()).isZero();
            assertThat(jvm.stdout()).as(jvm.stderr()).contains("done");
            return read(out, jvm.stdout());
        }
    }

    private static Run read(Path profile, String stdout) throws IOException {
        String header = "";
        Map<String, Long> samples = new HashMap<>();
        long total = 0;
        long unknown = 0;
        List<String> unknownLines = new ArrayList<>();
        long noteSamples = 0;
        long lost = 0;
        long dropped = 0;
        for (String line : Files.readAllLines(profile, StandardCharsets.UTF_8)) {
            if (line.startsWith("# mixflame ")) {
                header = line;
            }
            Matcher note = NOTE_COUNTS.matcher(line);
            if (note.find()) {
                noteSamples = Long.parseLong(note.group(1));
                lost = Long.parseLong(note.group(2));
                dropped = Long.parseLong(note.group(3));
            }
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            long n = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
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
        unknownLines.sort(java.util.Comparator.comparingLong(
                (String l) -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).reversed());
        String unknownStacks = String.join("\n", unknownLines.subList(0, Math.min(5, unknownLines.size())));
        System.out.println("[unknown] " + unknown + " of " + total + (unknown == 0 ? "" : ":\n" + unknownStacks));
        return new Run(header, samples, cpu, total, unknown, unknownStacks, noteSamples, lost, dropped);
    }
}
