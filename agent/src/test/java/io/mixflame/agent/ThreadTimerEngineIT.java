package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.PoolProfile;
import io.mixflame.testsupport.TestJdks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
            PoolProfile r = run(prefix, jdk, "duty-" + run, "DutyCycleApp", "interval=2ms", List.of(), "6", "100", "50",
                    "25");
            assertThat(r.header()).as("the engine that ran").contains("engine=" + engine);
            r.samples().forEach((name, n) -> samples.merge(name, n, Long::sum));
            r.cpu().forEach((name, n) -> cpu.merge(name, n, Long::sum));
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

    /** Five and fifty times the cores, each once, on the JDKs in turn (one busy thread per core: the duty test). */
    static Stream<Arguments> pools() {
        return TestJdks.spread(5, 50);
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aPoolWantingOneFiveAndFiftyTimesTheCoresIsSampledInFull(Path jdk, int times) throws Exception {
        // Each worker burns 2 ms and sleeps 5: it wants two sevenths of a core.
        int workers = times * Runtime.getRuntime().availableProcessors() * 7 / 2;
        List<String> prefix = denied("nobody", "perf_event_open,ptrace", null);
        PoolProfile r = run(prefix, jdk, "pool-" + workers, "ServicePoolApp", "interval=5ms", List.of(),
                Integer.toString(workers), "8", "2000", "5");
        assertThat(r.header()).as("the engine that ran").contains("engine=timer");
        // A thread's last part of an interval is never sampled, by any sampler: each worker is owed the intervals
        // of its CPU time less one.
        double owed = 0;
        for (long nanos : r.cpu().values()) {
            owed += Math.max(0, nanos / (double) POOL_INTERVAL_NANOS - 1);
        }
        long workerSamples = r.samplesOf("service-pool-worker-");
        r.assertWorkersNamed(POOL_INTERVAL_NANOS);
        assertThat(workerSamples > 0 && r.cpu().size() == workers).as("workers reported and sampled").isTrue();
        assertThat((double) workerSamples).as("the workers' samples against the intervals of CPU time owed")
                .isGreaterThanOrEqualTo(0.95 * owed);
        r.assertKeptAndKnown();
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
        PoolProfile r = run(prefix, jdk, "safety", "DutyCycleApp", "interval=1ms", List.of("-Xrs"), "2", "100", "50");
        assertThat(r.header()).as("the engine that ran").contains("engine=timer");
        assertThat(r.cpu()).as("the work's threads").containsKeys("duty-100", "duty-50");
        if (blockSignal) {
            assertThat(r.samples().getOrDefault("duty-100", 0L)).as("samples of a thread blocking the signal").isZero();
        } else {
            assertThat(r.samples().getOrDefault("duty-100", 0L)).as("samples of the busy thread").isGreaterThan(500);
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

    private List<String> denied(String user, String syscalls, String blockedSignal) throws Exception {
        return PoolProfile.prefix(dir, user, syscalls, blockedSignal);
    }

    private PoolProfile run(List<String> prefix, Path jdk, String name, String app, String options,
                            List<String> jvmOptions, String... args) throws Exception {
        return PoolProfile.run(dir, prefix, jdk, name, app, options, jvmOptions, args);
    }
}
