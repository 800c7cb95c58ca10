package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The soak: the {@code churn} workload (threads born and dying at a high rate, classes unloaded, deoptimizations)
 * profiled at {@code interval=1ms} for about 14 s (longer with {@code -Dmixflame.soak.seconds}), with the perf engine
 * on one JDK and the timer engine on the other; it runs until the test has made its looks. Between a look after the warm-up and a look near the end, the profiled JVM's
 * heap after a full GC, its open file descriptors, its perf events or CPU timers beyond its live threads and its
 * long-lived threads stay flat; it answers a diagnostic command at the end (no hang), exits normally and the profile
 * is written (with the timer engine, no sample lost or dropped), and no frame name in it is made of freed memory.
 */
class ChurnSoakIT {
    private static final int SECONDS = Integer.getInteger("mixflame.soak.seconds", 14);
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final Pattern LOST = Pattern.compile("# note: \\d+ samples, (\\d+) lost, (\\d+) dropped");
    /** The profile may still grow up to its bound on distinct stacks; anything beyond that is a leak. */
    private static final long HEAP_GROWTH_LIMIT_KB = 48 * 1024;
    /**
     * Events of threads that ended but that the sampler has not listed as ended yet (it lists every 50 ms to 1 s):
     * the churn starts and ends threads in bursts, so even the least of several looks may see some.
     */
    private static final int PERF_FD_SLACK = 16;
    /** Looks at the descriptors, 100 ms apart, of which the least excess over live threads is taken. */
    private static final int FD_LOOKS = 10;

    @TempDir
    Path dir;

    /** The first JDK with the perf engine, the second (or the only one again) with the timer engine. */
    static Stream<Arguments> engines() {
        List<Path> jdks = TestJdks.all();
        return Stream.of(Arguments.of(jdks.get(0), "perf"), Arguments.of(jdks.get(jdks.size() - 1), "timer"));
    }

    @ParameterizedTest
    @MethodSource("engines")
    void churnAtOneMillisecondLeavesHeapFilesAndThreadsFlat(Path jdk, String engine) throws Exception {
        Path out = dir.resolve("churn.collapsed");
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                // A small code cache: compiled code of unloaded classes is flushed and its space reused sooner.
                "-XX:ReservedCodeCacheSize=16m",
                "-javaagent:" + BuiltJars.agent() + "=start,engine=" + engine + ",interval=1ms,file=" + out,
                // It runs until the test has looked and ends its input: the looks' diagnostic commands take seconds on
                // a busy machine, and a fixed deadline could come before the last of them.
                "-jar", BuiltJars.examples().toString(), "churn", "--until-eof",
                "--seconds", Integer.toString(SECONDS * 4)))) {
            long pid = app.pid();
            TimeUnit.SECONDS.sleep(SECONDS / 5);
            Footprint before = Footprint.of(jdk, pid);
            TimeUnit.SECONDS.sleep(SECONDS * 3 / 5);
            Footprint after = Footprint.of(jdk, pid);
            String answer = jcmd(jdk, pid, "VM.uptime");
            app.endInput();
            assertThat(app.awaitExit(Duration.ofSeconds(SECONDS + 120))).as(app.stderr()).isZero();

            String seen = "before " + before + ", after " + after;
            assertThat(answer).as("the JVM answers a diagnostic command near the end").contains(" s");
            assertThat(after.heapUsedKb - before.heapUsedKb).as("heap growth after GC (kB); %s", seen)
                    .isLessThan(HEAP_GROWTH_LIMIT_KB);
            assertThat(after.otherFds - before.otherFds).as("open files other than perf events; %s", seen)
                    .isLessThanOrEqualTo(2);
            // One perf event per live thread: a leak of one per thread that ended would be thousands by now. The
            // count itself follows the short-lived threads alive at the moment of a look (up to ~20 here). Fewer
            // events than threads (new threads the sampler has not reached yet, on a busy machine) is no leak, and
            // not a baseline either: measured from it, an ordinary count later would look like growth.
            assertThat(after.perfBeyondThreads - Math.max(0, before.perfBeyondThreads))
                    .as("perf events beyond live threads; %s", seen).isLessThanOrEqualTo(PERF_FD_SLACK);
            // A CPU timer per live thread, the same way.
            assertThat(after.timersBeyondThreads - Math.max(0, before.timersBeyondThreads))
                    .as("CPU timers beyond live threads; %s", seen).isLessThanOrEqualTo(PERF_FD_SLACK);
            assertThat(after.threads.size() - before.threads.size()).as("long-lived threads; %s", seen)
                    .isLessThanOrEqualTo(1);
            assertThat(app.stdout()).contains("churn: ").contains("classes unloaded");
        }
        assertThat(CollapsedShares.read(out).totalSamples()).as("samples in the profile").isGreaterThan(SECONDS * 100L);
        String header = Files.readAllLines(out, StandardCharsets.UTF_8).get(0);
        assertThat(header).as("the engine that ran").contains("engine=" + engine);
        Matcher counts = LOST.matcher(Files.readString(out, StandardCharsets.UTF_8));
        assertThat(counts.find()).as("the cost note's counts").isTrue();
        if (engine.equals("timer")) {
            // Samples wait in the handlers' ring while the walker is busy: none is lost or dropped.
            assertThat(Long.parseLong(counts.group(1)) + Long.parseLong(counts.group(2)))
                    .as("samples lost and dropped: %s", counts.group()).isZero();
        }
        // Classes (lambda forms, hidden classes, the payload classes) unload all the time here, some between a
        // sample and its walk: their frames are named or marked unloaded, never made of freed memory.
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(lines).as("frames of hidden classes were sampled").anyMatch(l -> l.contains("LambdaForm$"));
        assertThat(lines).as("frame names that are not printable text")
                .noneMatch(l -> l.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == 0xfffd));
    }

    /** What the test watches of the profiled JVM at one moment. */
    private record Footprint(long heapUsedKb, long otherFds, long perfBeyondThreads, long timersBeyondThreads,
                             List<String> threads) {
        static Footprint of(Path jdk, long pid) throws Exception {
            jcmd(jdk, pid, "GC.run");
            Matcher used = HEAP_USED.matcher(jcmd(jdk, pid, "GC.heap_info"));
            assertThat(used.find()).as("heap usage of %d", pid).isTrue();
            long other = Long.MAX_VALUE;
            long perfBeyondThreads = Long.MAX_VALUE;
            long timersBeyondThreads = Long.MAX_VALUE;
            for (int look = 0; look < FD_LOOKS; look++) {
                long[] fds = fds(pid);
                long tasks = taskCount(pid);
                other = Math.min(other, fds[1]);
                perfBeyondThreads = Math.min(perfBeyondThreads, fds[0] - tasks);
                timersBeyondThreads = Math.min(timersBeyondThreads, timers(pid) - tasks);
                TimeUnit.MILLISECONDS.sleep(100);
            }
            return new Footprint(Long.parseLong(used.group(1)), other, perfBeyondThreads, timersBeyondThreads,
                    longLivedThreads(pid));
        }

        /** POSIX timers of the process ({@code /proc/PID/timers}, one {@code ID:} line each). */
        private static long timers(long pid) throws IOException {
            return Files.readAllLines(Path.of("/proc/" + pid + "/timers")).stream()
                    .filter(l -> l.startsWith("ID:")).count();
        }

        /** Perf event descriptors and the others, open now. */
        private static long[] fds(long pid) throws IOException {
            long other = 0;
            long perf = 0;
            try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                for (Path fd : (Iterable<Path>) fds::iterator) {
                    String target;
                    try {
                        target = Files.readSymbolicLink(fd).toString();
                    } catch (IOException closed) {
                        continue;
                    }
                    if (target.equals("anon_inode:[perf_event]")) {
                        perf++;
                    } else {
                        other++;
                    }
                }
            }
            return new long[] {perf, other};
        }

        private static long taskCount(long pid) throws IOException {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
                return tasks.count();
            }
        }

        /**
         * The JVM's own thread pools that grow on demand (compiler threads under a compile backlog, GC workers), by
         * their 15-byte kernel names: one CI run saw two appear between the looks, which says nothing of the
         * profiler's threads.
         */
        /** The workload's thread that starts the short-lived ones. */
        private static final String CHURNER = "thread-churn";

        private static final List<String> DYNAMIC_JVM_POOLS = List.of("C1 CompilerThre", "C2 CompilerThre",
                "GC Thread#", "G1 Conc#", "G1 Refine#");

        /**
         * Threads other than the workload's short-lived ones, whose number at any moment is up to chance, and the
         * JVM's pools that grow on demand. A thread just started has its parent's kernel name until the JVM names it,
         * so the short-lived threads caught that early show as more {@code thread-churn}s: that name counts once.
         */
        private static List<String> longLivedThreads(long pid) throws IOException {
            List<String> names = new ArrayList<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
                for (Path t : (Iterable<Path>) tasks::iterator) {
                    try {
                        names.add(Files.readString(t.resolve("comm"), StandardCharsets.UTF_8).trim());
                    } catch (IOException ended) {
                        // a short-lived thread that ended meanwhile
                    }
                }
            }
            List<String> churners = names.stream().filter(n -> n.equals(CHURNER)).limit(1).toList();
            return Stream.concat(names.stream().filter(n -> !n.equals("short-lived") && !n.equals(CHURNER)),
                            churners.stream())
                    .filter(n -> DYNAMIC_JVM_POOLS.stream().noneMatch(n::startsWith)).sorted().toList();
        }
    }

    private static String jcmd(Path jdk, long pid, String command) throws Exception {
        Process p = new ProcessBuilder(jdk.resolve("bin/jcmd").toString(), Long.toString(pid), command)
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jcmd %s %s answered", pid, command).isTrue();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("jcmd %s: %s", command, text).isZero();
        return text;
    }
}
