package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.SeccompLauncher;
import io.mixflame.testsupport.TestJdks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The examples where a container's seccomp profile refuses {@code perf_event_open}, and {@code ptrace} too (the
 * test's own launcher, built with gcc): {@code engine=auto} samples each thread in its own signal handler (the timer
 * engine), and the profile is as true as the perf engine's: the {@code mixed} example shows zlib and libc below
 * their Java callers in the shares a perf-engine run of it shows, within 8 points, under either filter. Judged on as
 * many samples as the margins need. (The timer engine's CPU shares are judged against the kernel's count of each
 * thread's CPU time in {@code ThreadTimerEngineIT}.)
 */
class ContainedEngineIT {
    /**
     * The {@code mixed} example runs at 5 ms for 8 s: its phases follow one another in time, and in a short run the
     * first pays most of the helper's start (its first walks, each module's symbols read at its first sample), which
     * the perf engine's buffered samples do not.
     */
    private static final String MIXED_INTERVAL = "5ms";
    private static final double DIFFERENCE = 0.08;

    @TempDir
    Path dir;

    /** Each JDK as an ordinary user, under one filter each: perf events refused, and ptrace with them. */
    static Stream<Arguments> filters() {
        List<Path> jdks = TestJdks.all();
        return Stream.of(
                Arguments.of(jdks.get(0), "perf_event_open"),
                Arguments.of(jdks.get(jdks.size() - 1), "perf_event_open,ptrace"));
    }

    @ParameterizedTest
    @MethodSource("filters")
    void theMixedExampleShowsZlibAndLibcBelowJavaAsThePerfEngineDoes(Path jdk, String denied) throws Exception {
        String user = "nobody";
        // Two runs' shares differ by chance with a spread of sqrt(p(1-p)(1/a + 1/b)): four of it within the
        // difference allowed needs this many samples of each at the widest share, one half.
        long needed = 2 * CollapsedShares.samplesForMargin(DIFFERENCE);
        MixedShares stopped = mixed(deniedPrefix(user, denied), jdk, "timer", needed);
        MixedShares perf = mixed(user.equals("root") ? List.of() : List.of("runuser", "-u", user, "--"), jdk,
                "perf", needed);
        assertThat(stopped.zlib).as("zlib below Java sampled in the threads: %s", stopped).isGreaterThan(0.2);
        assertThat(stopped.qsort).as("libc qsort below Java sampled in the threads: %s", stopped).isGreaterThan(0.2);
        assertThat(stopped.memcmp).as("libc memcmp below Java sampled in the threads: %s", stopped)
                .isGreaterThan(0.2);
        assertThat(stopped.zlib).as("zlib: %s against perf's %s", stopped, perf).isCloseTo(perf.zlib,
                org.assertj.core.api.Assertions.within(DIFFERENCE));
        assertThat(stopped.qsort).as("qsort: %s against perf's %s", stopped, perf).isCloseTo(perf.qsort,
                org.assertj.core.api.Assertions.within(DIFFERENCE));
        assertThat(stopped.memcmp).as("memcmp: %s against perf's %s", stopped, perf).isCloseTo(perf.memcmp,
                org.assertj.core.api.Assertions.within(DIFFERENCE));
    }

    /** The workload thread's shares in native code below the Java that called it, of its samples. */
    private record MixedShares(long samples, double zlib, double qsort, double memcmp) {
        private static final Pattern ZLIB_JAVA = Pattern.compile("java/util/zip/(De|In)flater\\.");
        private static final Pattern ZLIB = Pattern.compile("^(deflate|inflate)|libz");

        static MixedShares of(List<Path> profiles) throws IOException {
            long all = 0;
            long zlib = 0;
            long qsort = 0;
            long memcmp = 0;
            for (Path p : profiles) {
                for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                    if (line.startsWith("#") || !line.contains("io/mixflame/examples/mixed/")) {
                        continue;
                    }
                    long n = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
                    String[] frames = line.substring(0, line.lastIndexOf(' ')).split(";");
                    all += n;
                    if (below(frames, ZLIB_JAVA, ZLIB)) {
                        zlib += n;
                    } else if (below(frames, Pattern.compile("QsortPhase"), Pattern.compile("qsort|msort"))) {
                        qsort += n;
                    } else if (below(frames, Pattern.compile("MemcmpPhase"), Pattern.compile("memcmp"))) {
                        memcmp += n;
                    }
                }
            }
            double total = Math.max(1, all);
            return new MixedShares(all, zlib / total, qsort / total, memcmp / total);
        }

        /** Whether a frame matching {@code nativeFrame} lies below (leafward of) the first matching {@code java}. */
        private static boolean below(String[] frames, Pattern java, Pattern nativeFrame) {
            for (int i = 0; i < frames.length; i++) {
                if (java.matcher(frames[i]).find()) {
                    for (int j = i + 1; j < frames.length; j++) {
                        if (nativeFrame.matcher(frames[j]).find()) {
                            return true;
                        }
                    }
                    return false;
                }
            }
            return false;
        }
    }

    private MixedShares mixed(List<String> prefix, Path jdk, String engine, long needed) throws Exception {
        ProfilePeriods periods = new ProfilePeriods("samples of the mixed workload with the " + engine + " engine",
                needed, Duration.ofMinutes(2), 200);
        List<Path> profiles = new ArrayList<>();
        periods.collect(Duration.ofSeconds(8), p -> MixedShares.of(List.of(p)).samples(), (i, length) -> {
            Path out = run(prefix, jdk, "mixed-" + engine + "-" + i, "mixed", MIXED_INTERVAL, length);
            assertThat(Files.readAllLines(out).get(0)).as("the engine that ran").contains("engine=" + engine);
            profiles.add(out);
            return out;
        });
        return MixedShares.of(profiles);
    }

    /** The prefix that runs a JVM as {@code user} under a filter refusing {@code denied} (system call names). */
    private List<String> deniedPrefix(String user, String denied) throws Exception {
        Assumptions.assumeTrue(SeccompLauncher.canRunAs(user), "not run: needs root, runuser and a user " + user);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        return SeccompLauncher.build(dir).prefix(user, denied);
    }

    /** Runs {@code example} for {@code length} at {@code interval} under the agent behind {@code prefix}. */
    private Path run(List<String> prefix, Path jdk, String name, String example, String interval, Duration length)
            throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path out = dir.resolve(name + ".collapsed");
        Path runDir = Files.createDirectories(dir.resolve(name));
        Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        // Copies another user can read whatever the checkout's permissions.
        Path agent = dir.resolve("mixflame.jar");
        Path examples = dir.resolve("mixflame-examples.jar");
        if (!Files.exists(examples)) {
            Files.copy(BuiltJars.agent(), agent);
            Files.copy(BuiltJars.examples(), examples);
        }
        try (ChildJvm app = ChildJvm.start(prefix, jdk, runDir, List.of(
                "-javaagent:" + agent + "=start,interval=" + interval + ",file=" + out,
                "-jar", examples.toString(), example, "--seconds", Long.toString(length.toSeconds())))) {
            assertThat(app.awaitExit(length.plus(Duration.ofSeconds(110)))).as(app.stderr()).isZero();
            if (prefix.stream().anyMatch(a -> a.startsWith("perf_event_open"))) {
                assertThat(app.stderr()).as("why perf was not used").contains("perf engine refused");
            }
        }
        return out;
    }
}
