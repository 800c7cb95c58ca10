package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code service} example under load with {@code event=wall,threads}: the worker threads' samples in the
 * blocking endpoint's sleep and in the lock-contended endpoint's monitor wait go down to libc's futex call, and
 * their shares of the workers' samples match the shares of the workers' lifetimes that the workload measured.
 */
class WallServiceIT {
    private static final double INTERVAL_MS = 20;
    private static final double TOLERANCE = 0.05;

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#newestOnly")
    void sleepAndLockWaitSharesMatchTheWorkersOwnTimes(Path jdk) throws Exception {
        Path out = dir.resolve("wall.collapsed");
        String stdout;
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,event=wall,threads,file=" + out,
                "-jar", BuiltJars.examples().toString(), "service", "--load", "--seconds", "8", "--threads", "8"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
            stdout = app.stdout();
        }
        double lifetime = number(stdout, "(\\d+) ms of worker lifetime");
        double sleeping = number(stdout, "(\\d+) ms sleeping");
        double waiting = number(stdout, "(\\d+) ms waiting for the lock");

        List<Sample> workers = Files.readAllLines(out, StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("[service-worker-")).map(Sample::parse).toList();
        long all = total(workers, s -> true);
        // Each sample stands for one interval of its thread's time, late ticks included.
        assertThat(all * INTERVAL_MS / lifetime).as("worker samples × interval / worker lifetime")
                .isCloseTo(1.0, within(0.15));

        Predicate<Sample> sleep = s -> s.has("Service.sleep");
        Predicate<Sample> lockWait = s -> s.has("Service.contend") && !s.has("java/lang/Thread.sleep");
        assertThat((double) total(workers, sleep) / all).as("share of worker samples sleeping; stdout:\n%s", stdout)
                .isCloseTo(sleeping / lifetime, within(TOLERANCE));
        assertThat((double) total(workers, lockWait) / all).as("share of worker samples waiting for the lock")
                .isCloseTo(waiting / lifetime, within(TOLERANCE));

        // Down to the system call: Java, the JVM's park, libc's futex wait, and the state as the leaf.
        assertThat(total(workers, sleep.and(s -> s.has("java/lang/Thread.sleep") && s.blockedInLibcFutex())))
                .as("sleeping samples that reach libc's futex call").isGreaterThan(total(workers, sleep) * 8 / 10);
        assertThat(total(workers, lockWait.and(s -> s.has("ObjectMonitor::enter") && s.blockedInLibcFutex()))).as("lock-wait samples through monitor enter to libc's futex call")
                .isGreaterThan(total(workers, lockWait) * 6 / 10);
    }

    private static double number(String stdout, String regex) {
        Matcher m = Pattern.compile(regex).matcher(stdout);
        assertThat(m.find()).as("/%s/ in\n%s", regex, stdout).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static long total(List<Sample> samples, Predicate<Sample> which) {
        return samples.stream().filter(which).mapToLong(Sample::count).sum();
    }

    /** One line of collapsed output: frames root first, and a count. */
    private record Sample(List<String> frames, long count) {
        static Sample parse(String line) {
            int space = line.lastIndexOf(' ');
            return new Sample(Arrays.asList(line.substring(0, space).split(";")),
                    Long.parseLong(line.substring(space + 1)));
        }

        boolean has(String part) {
            return frames.stream().anyMatch(f -> f.contains(part));
        }

        /** The leaf is the futex state, right below a user-space (not kernel) frame of libc's futex wait. */
        boolean blockedInLibcFutex() {
            int n = frames.size();
            return n >= 2 && frames.get(n - 1).equals("[blocked in futex]")
                    && frames.get(n - 2).contains("futex") && !frames.get(n - 2).endsWith("_[k]");
        }
    }
}
