package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A service's thousand pool threads, started in bursts, as root and as an ordinary user with this machine's default
 * limits: every worker sampled under its own (Java) name, equal workers with equal shares, no {@code [unknown]}, and
 * nothing lost or dropped; with the user's locked memory nearly spent, smaller buffers and still every thread; in
 * wall-clock profiles, a thousand threads visited in turn, each counted for all its time, in its state.
 *
 * <p>The profile is read one second at a time while the application runs, until the workers' samples give margins
 * that chance exceeds less than once in 10 000 runs (or a bound on time).
 */
class ManyThreadsIT {
    private static final String APP = "io.mixflame.testapp.ServicePoolApp";
    private static final int WORKERS = 1000;
    /** Samples per worker, on average, before the shares are judged. */
    private static final double SAMPLES_PER_WORKER = 2;
    /** The standard normal quantile exceeded with probability 1 in 10 000. */
    private static final double Z = 3.72;
    private static final Pattern WORKER_ROOT = Pattern.compile("^\\[service-pool-worker-(\\d+) tid=\\d+\\];");
    private static final Pattern LAST_COUNT = Pattern.compile(" (\\d+)$");

    @TempDir
    Path dir;

    /** The newest JDK as an ordinary user: the wall-clock test takes the other JDK, as the same user. */
    static Stream<Arguments> jdksCrosswise() {
        return Stream.of(Arguments.of(TestJdks.newest(), "nobody"));
    }

    static Stream<Arguments> jdksOtherwise() {
        return Stream.of(Arguments.of(TestJdks.running(), "nobody"));
    }

    @ParameterizedTest
    @MethodSource("jdksCrosswise")
    void aThousandPoolThreadsAreEachSampledUnderTheirOwnNameWithEqualShares(Path jdk, String user) throws Exception {
        // About 1.6 of the 2 cores busy, as a service at 80%: each worker 1 ms of CPU, then 600 ms asleep.
        Periods periods = profile(jdk, user, List.of(), "event=cpu,interval=10ms",
                p -> p.workerSamples() >= SAMPLES_PER_WORKER * WORKERS, 2_000, WORKERS + "", "60", "1000", "600");
        int[] counts = periods.workerCounts;
        long workerSamples = 0;
        int missing = 0;
        for (int c : counts) {
            workerSamples += c;
            missing += c == 0 ? 1 : 0;
        }
        double mean = (double) workerSamples / WORKERS;
        assertThat(mean).as("samples per worker (%s)", periods.notes).isGreaterThanOrEqualTo(SAMPLES_PER_WORKER);
        // A worker without a sample: by chance, as often as a Poisson count of that mean is zero.
        double p0 = Math.exp(-mean);
        double missingBound = WORKERS * p0 + Z * Math.sqrt(WORKERS * p0 * (1 - p0)) + 1;
        assertThat((double) missing).as("workers without a sample, of %d, at %.2f samples each", WORKERS, mean)
                .isLessThanOrEqualTo(missingBound);
        // Equal workers, equal shares: the counts' dispersion is a chi-square of WORKERS - 1 degrees of freedom.
        double dispersion = 0;
        for (int c : counts) {
            dispersion += (c - mean) * (c - mean) / mean;
        }
        double k = WORKERS - 1;
        double bound = k * Math.pow(1 - 2 / (9 * k) + Z * Math.sqrt(2 / (9 * k)), 3);
        assertThat(dispersion).as("the workers' counts' dispersion (equal shares)").isLessThanOrEqualTo(bound);
        assertThat(periods.unnamedWorkerSamples).as("worker samples under no worker's name: %s", periods.unnamed)
                .isZero();
        assertThat((double) periods.unknown / periods.total).as("[unknown] share of %d samples", periods.total)
                .isLessThan(0.005);
        assertThat((double) (periods.lost + periods.dropped) / periods.total)
                .as("lost and dropped of %d samples (%s)", periods.total, periods.notes).isLessThan(0.01);
    }

    // The rings and the drain are the profiler's, not the JVM's: one JDK.
    @Test
    void atOneMillisecondWithBothCoresBusyUnderOnePercentIsLostOrDropped() throws Exception {
        Path jdk = TestJdks.newest();
        // Two hot threads keep both cores busy beside the pool's thousand, mostly asleep.
        Periods periods = profile(jdk, "root", List.of(), "event=cpu,interval=1ms", p -> p.read >= 5, 2_000,
                WORKERS + "", "60", "200", "2000", "2");
        assertThat(periods.total).as("samples judged").isGreaterThan(5_000);
        assertThat((double) (periods.lost + periods.dropped) / periods.total)
                .as("lost and dropped of %d samples (%s)", periods.total, periods.notes).isLessThan(0.01);
    }

    /**
     * Wall clock with a thousand threads, 990 of them parked and 10 busy, on each JDK as the user the cpu test did
     * not run it as: most ticks taken and the note says how many of how many, each thread counted for all the
     * time it lived, parked threads as parked and busy ones running, with their stacks.
     */
    @ParameterizedTest
    @MethodSource("jdksOtherwise")
    void wallClockWithAThousandThreadsTakesItsTicksAndTellsTheirStates(Path jdk, String user) throws Exception {
        int parked = 990;
        // Judged from the period after the first in which no worker ran: the workers' start (a wait for the others,
        // a millisecond's burn) is behind them, and what the sampler took of it, however late, is added.
        Periods periods = profile(jdk, user, List.of(), "event=wall,interval=20ms", p -> p.read >= 6, 5_000,
                lines -> lines.stream().anyMatch(l -> l.contains("wall-clock ticks"))
                        && lines.stream().noneMatch(l -> WORKER_ROOT.matcher(l).find() && l.contains(";[running] ")),
                parked + "", "60", "1000", "100000000", "10");
        Matcher ticks = Pattern.compile("(\\d+) of (\\d+) wall-clock ticks").matcher(periods.notes);
        assertThat(ticks.find()).as("the note says T of M ticks: %s", periods.notes).isTrue();
        long taken = Long.parseLong(ticks.group(1));
        long asked = Long.parseLong(ticks.group(2));
        // Most ticks, not nearly all: on a machine busy with other work the sampler runs late at times, and how
        // close to every tick it keeps is the harness's to measure; a sampler that stalled takes far fewer.
        assertThat((double) taken).as("ticks taken of %d asked", asked).isGreaterThanOrEqualTo(0.5 * asked);
        int[] counts = periods.workerCounts;
        // Every worker lived through the periods read (of a second each: 50 intervals), and each stands for all of
        // their intervals, whichever ticks visited it: short only by what the engine held for it at the end of the
        // last period read, up to the 25 intervals of an unmoved thread's samples added in bulk or the ten ticks or so
        // a thread that moved waits for its visit (a tick visits up to 100), and one interval of a period's edge.
        // (A thread whose first visit fell in the periods read also brings the intervals it waited for it.)
        long intervals = 50L * periods.read;
        for (int i = 0; i < parked; i++) {
            assertThat((long) counts[i]).as("intervals of parked worker %d in %d periods", i, periods.read)
                    .isGreaterThanOrEqualTo(intervals - 25 - 10 - periods.read);
        }
        assertThat(periods.unnamedWorkerSamples).as("worker samples under no worker's name: %s", periods.unnamed)
                .isZero();
        assertThat((double) periods.workerStates.getOrDefault("[blocked in futex]", 0L) / periods.workerSamples())
                .as("parked workers' samples blocked in futex (%s; %s)", periods.workerStates, periods.notes)
                .isGreaterThan(0.99);
        assertThat((double) periods.busyRunningWithStack / periods.busySamples)
                .as("busy threads' samples running in their own code, of %d", periods.busySamples).isGreaterThan(0.9);
        assertThat(periods.busySamples).as("the busy threads' intervals, against a worker's")
                .isGreaterThanOrEqualTo(10 * (intervals - 25 - 10 - periods.read));
    }

    /**
     * The user's perf allowance nearly spent by another of its processes and {@code RLIMIT_MEMLOCK} lowered to 0: the
     * per-CPU buffers are mapped smaller, every thread is still sampled, and the note says what was mapped.
     */
    @Test
    void withTheUsersLockedMemoryNearlySpentBuffersAreSmallerAndEveryThreadIsStillSampled() throws Exception {
        assumeUser("nobody");
        // Read by lines: Files.readString stops after the first byte of some /proc files (their size is 0).
        int cpus = Integer.parseInt(Files.readAllLines(Path.of("/sys/devices/system/cpu/online")).get(0)
                .replaceAll(".*-", "")) + 1;
        long allowance = Long.parseLong(Files.readAllLines(Path.of("/proc/sys/kernel/perf_event_mlock_kb")).get(0)
                .strip()) / 4 * cpus;
        // Left to the profiler: room for a ring of 16 data pages (and its header) per CPU, not for the default.
        long left = 17L * cpus + 8;
        Path hog = dir.resolve("perfhog");
        StacksIT.run("gcc", "-O1", "-o", hog.toString(),
                Path.of("target/test-classes/native/perfhog/perfhog.c").toAbsolutePath().toString());
        openUp(dir);
        Process holder = new ProcessBuilder("runuser", "-u", "nobody", "--", "prlimit", "--memlock=0:0",
                hog.toString(), Long.toString(allowance - left)).redirectErrorStream(true).start();
        try {
            String said = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            assertThat(said).as("the other process holds the user's locked memory").startsWith("held ");
            Periods periods = profile(TestJdks.all().get(0), "nobody", List.of("prlimit", "--memlock=0:0"),
                    "event=cpu,interval=10ms", p -> p.read >= 5, 2_000, "200", "60", "1000", "100");
            assertThat(periods.notes).as("the note says what was mapped (the other process alive: %s)",
                    holder.descendants().map(h -> h.info().commandLine().orElse("?")).toList())
                    .contains("perf ring buffers: one per CPU, " + cpus + " x 68 KiB locked")
                    .contains("every thread sampled");
            long named = 0;
            for (int i = 0; i < 200; i++) {
                named += periods.workerCounts[i] > 0 ? 1 : 0;
            }
            assertThat(named).as("workers sampled under their names").isGreaterThanOrEqualTo(190);
            assertThat(periods.unnamedWorkerSamples).as("worker samples under no worker's name: %s", periods.unnamed)
                    .isZero();
        } finally {
            holder.getOutputStream().close();
            holder.descendants().forEach(ProcessHandle::destroyForcibly);
            holder.destroyForcibly();
            holder.waitFor();
        }
    }

    /** What the periods judged counted. */
    private static final class Periods {
        final int[] workerCounts = new int[WORKERS];
        /** Whether the periods are read: past the start-up. */
        boolean settled;
        long total;
        long unknown;
        long lost;
        long dropped;
        long unnamedWorkerSamples;
        /** Worker samples by their leaf frame (a wall-clock profile's thread state). */
        final java.util.Map<String, Long> workerStates = new java.util.TreeMap<>();
        long busySamples;
        long busyRunningWithStack;
        /** The roots of the first few worker samples under no worker's name. */
        final List<String> unnamed = new ArrayList<>();
        int read;
        /** The notes of the last period read. */
        String notes = "";

        long workerSamples() {
            long sum = 0;
            for (int c : workerCounts) {
                sum += c;
            }
            return sum;
        }
    }

    /**
     * Runs the pool app with {@code args} under the agent (as {@code user}, through {@code prefix}) from copies of the
     * agent and the app in the test's folder (which any user can read), reads its one-second periods written
     * {@code skipMillis} after it started until {@code enough} holds (or the app ends), and stops it.
     */
    private Periods profile(Path jdk, String user, List<String> prefix, String sampling,
                            java.util.function.Predicate<Periods> enough, long skipMillis, String... args)
            throws Exception {
        return profile(jdk, user, prefix, sampling, enough, skipMillis, null, args);
    }

    /**
     * As above, and where {@code settled} is given, the periods are read from the one after the first (past the skip)
     * that it accepts:
     * a period's samples are those the profiler added in it, and a sampler that ran seconds late adds the start-up's
     * late.
     */
    private Periods profile(Path jdk, String user, List<String> prefix, String sampling,
                            java.util.function.Predicate<Periods> enough, long skipMillis,
                            java.util.function.Predicate<List<String>> settled, String... args)
            throws Exception {
        List<String> command = new ArrayList<>();
        if (!user.equals("root")) {
            assumeUser(user);
            command.addAll(List.of("runuser", "-u", user, "--"));
        }
        command.addAll(prefix);
        openUp(dir);
        Path agent = Files.copy(BuiltJars.agent(), dir.resolve("mixflame.jar"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path classes = dir.resolve("classes");
        Path appClass = Path.of(AttachIT.TEST_CLASSES, APP.replace('.', '/') + ".class");
        Path target = Files.createDirectories(classes.resolve("io/mixflame/testapp"));
        try (Stream<Path> compiled = Files.list(appClass.getParent())) {
            for (Path c : compiled.filter(c -> (c.getFileName().toString().startsWith("ServicePoolApp")
                    || c.getFileName().toString().startsWith("ThreadCpu"))).toList()) {
                Files.copy(c, target.resolve(c.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path profiles = Files.createDirectories(dir.resolve("profiles-" + user + "-" + System.nanoTime()));
        openUp(profiles);
        List<String> java = new ArrayList<>(List.of("-javaagent:" + agent + "=start," + sampling
                + ",threads,loop=1s,keep=200,file=" + profiles.resolve("p.collapsed"), "-cp", classes.toString(), APP));
        java.addAll(List.of(args));
        Periods periods = new Periods();
        periods.settled = settled == null;
        List<Path> done = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        try (ChildJvm app = ChildJvm.start(command, jdk, dir, java)) {
            app.awaitOutput("started", Duration.ofSeconds(60));
            long startedAt = System.currentTimeMillis();
            while (System.nanoTime() < deadline && !enough.test(periods)) {
                Thread.sleep(500);
                boolean ended = !app.isAlive();
                for (Path p : periodsWritten(profiles)) {
                    if (!done.contains(p) && Files.getLastModifiedTime(p).toMillis() >= startedAt + skipMillis) {
                        done.add(p);
                        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
                        if (periods.settled) {
                            periods.read++;
                            add(periods, lines);
                        } else {
                            periods.settled = settled.test(lines);
                        }
                    }
                }
                if (ended) {
                    break;
                }
            }
            assertThat(app.stderr()).as("the agent's log").doesNotContain("ERROR").doesNotContain("not sampled");
        }
        assertThat(periods.read).as("periods read (start-up over: %s)", periods.settled).isPositive();
        return periods;
    }

    private static List<Path> periodsWritten(Path profiles) throws IOException {
        try (Stream<Path> files = Files.list(profiles)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".collapsed")).sorted().toList();
        }
    }

    private static void add(Periods periods, List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("# note: ")) {
                periods.notes = (lines.indexOf(line) == firstNote(lines) ? "" : periods.notes) + line + "\n";
                continue;
            }
            Matcher count = LAST_COUNT.matcher(line);
            if (line.startsWith("#") || !count.find()) {
                continue;
            }
            long n = Long.parseLong(count.group(1));
            periods.total += n;
            if (line.contains("[unknown]")) {
                periods.unknown += n;
            }
            if (line.contains("[lost samples]")) {
                periods.lost += n;
            }
            if (line.contains("[dropped]")) {
                periods.dropped += n;
            }
            Matcher worker = WORKER_ROOT.matcher(line);
            if (worker.find()) {
                periods.workerCounts[Integer.parseInt(worker.group(1))] += (int) n;
                periods.workerStates.merge(line.substring(line.lastIndexOf(';') + 1, count.start()), n, Long::sum);
            } else if (line.startsWith("[service-busy-")) {
                periods.busySamples += n;
                if (line.contains("ServicePoolApp.") && line.contains(";[running] ")) {
                    periods.busyRunningWithStack += n;
                }
            } else if (line.contains("ServicePoolApp.work")) {
                periods.unnamedWorkerSamples += n;
                if (periods.unnamed.size() < 5) {
                    periods.unnamed.add(line.substring(0, Math.min(line.indexOf(';') + 1, 80)) + " " + n);
                }
            }
        }
    }

    private static int firstNote(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("# note: ")) {
                return i;
            }
        }
        return -1;
    }

    private static void assumeUser(String user) throws Exception {
        boolean present = new ProcessBuilder("id", user).start().waitFor() == 0
                && new ProcessBuilder("sh", "-c", "command -v runuser && command -v prlimit").start().waitFor() == 0
                && "root".equals(System.getProperty("user.name"));
        Assumptions.assumeTrue(present, "not run: needs root, runuser, prlimit and a user " + user);
    }

    /** Lets another user write the test's files. */
    private static void openUp(Path path) throws IOException {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxrwxrwx"));
    }
}
