package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.SeccompLauncher;
import io.mixflame.testsupport.TestJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JVM run under a seccomp filter that refuses {@code perf_event_open}, as a container's default profile does (a
 * launcher of the test's own, built with gcc), with {@code engine=ptrace}: threads stopped by a helper process with
 * ptrace. A pool of 200 workers is sampled, each under its own name; {@code record --pid} under the same filter, where
 * no code runs in the target, falls back to it by itself; and a helper killed with {@code kill -9} mid-run leaves the
 * JVM running, none of its threads stopped, with one line saying so. With ptrace and CPU timers refused as well,
 * {@code engine=auto} ends on JFR and says why each engine was refused, and that native frames are missing.
 */
class PtraceEngineIT {
    private static final String APP = "io.mixflame.testapp.ServicePoolApp";
    private static final int WORKERS = 200;
    private static final Pattern WORKER_ROOT = Pattern.compile("^\\[service-pool-worker-(\\d+) tid=");

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#crosswise")
    void withPerfEventsRefusedEveryWorkerIsSampledByNameAndTheJvmOutlivesItsHelper(Path jdk, String user)
            throws Exception {
        Assumptions.assumeTrue(SeccompLauncher.canRunAs(user), "not run: needs root, runuser and a user " + user);
        SeccompLauncher deny = SeccompLauncher.build(dir);
        Workers workers = new Workers();
        try (ChildJvm app = start(deny.prefix(user, "perf_event_open"), jdk, "ptrace")) {
            ProcessHandle jvm = jvm(app);
            String header = readPeriods(app, workers, () -> workers.named() == WORKERS);
            assertThat(header).as("the engine that ran").contains("engine=ptrace");
            assertThat(workers.named()).as("workers sampled under their names, of %d", WORKERS).isEqualTo(WORKERS);
            assertThat(workers.unnamed).as("worker samples under no worker's name: %s", workers.unnamedRoots)
                    .isZero();

            // record --pid from outside, under the same filter and as the same user, falls back the same way.
            Path recorded = dir.resolve("profiles/record.collapsed");
            List<String> record = new ArrayList<>(deny.prefix(user, "perf_event_open"));
            record.addAll(List.of(TestJdks.java(jdk).toString(), "-jar", agentJar().toString(), "record", "--pid",
                    Long.toString(jvm.pid()), "-d", "2s", "-f", recorded.toString()));
            Process p = new ProcessBuilder(record).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(said).isZero();
            assertThat(said).contains("perf engine refused").contains("with the ptrace engine");
            assertThat(Files.readAllLines(recorded).get(0)).contains("engine=ptrace");

            // kill -9 of the helper: the kernel lets go of a thread it held, the JVM runs on and says so once.
            ProcessHandle helper = jvm.children().filter(h -> runs(h, "helper")).findFirst()
                    .orElseThrow(() -> new AssertionError("no helper process below " + jvm.pid()));
            helper.destroyForcibly();
            assertThat(helper.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!app.stderr().contains("ended while sampling") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            Thread.sleep(500);
            assertThat(jvm.isAlive()).as("the JVM after its helper was killed").isTrue();
            assertThat(stoppedThreads(jvm.pid())).as("threads of the JVM left in a tracing stop").isEmpty();
            assertThat(app.stderr().lines().filter(l -> l.contains("helper process")
                    && l.contains("ended while sampling")).count()).as(app.stderr()).isEqualTo(1);
        }
    }

    @Test
    void withPtraceAndTimersRefusedTooItEndsOnJfrAndSaysWhyEachEngineWasRefused() throws Exception {
        SeccompLauncher deny = SeccompLauncher.build(dir);
        List<String> notes = new ArrayList<>();
        try (ChildJvm app = start(deny.prefix("root", "perf_event_open,ptrace,timer_create"), TestJdks.all().get(0),
                "auto")) {
            String header = readPeriods(app, (line, n) -> {
                if (line.startsWith("# note: ")) {
                    notes.add(line);
                }
            }, () -> !notes.isEmpty());
            assertThat(header).contains("engine=jfr");
            assertThat(app.stderr()).contains("perf engine refused").contains("timer engine refused")
                    .contains("ptrace engine refused")
                    .contains("cannot be stopped");
        }
        assertThat(notes).anyMatch(n -> n.contains("native frames are missing"));
    }

    /** Lines of the profile's periods, each with its sample count (0 for a comment). */
    @FunctionalInterface
    private interface Lines {
        void add(String line, long samples);
    }

    /** The pool's samples: how many each worker has under its own name, and those of workers under another. */
    private static final class Workers implements Lines {
        final long[] counts = new long[WORKERS];
        long unnamed;
        final List<String> unnamedRoots = new ArrayList<>();

        @Override
        public void add(String line, long n) {
            Matcher worker = WORKER_ROOT.matcher(line);
            if (worker.find()) {
                counts[Integer.parseInt(worker.group(1))] += n;
            } else if (line.contains("ServicePoolApp.work")) {
                unnamed += n;
                if (unnamedRoots.size() < 5) {
                    unnamedRoots.add(line.substring(0, Math.min(line.indexOf(';') + 1, 80)));
                }
            }
        }

        long named() {
            return java.util.Arrays.stream(counts).filter(c -> c > 0).count();
        }
    }

    /** The pool's JVM: the child itself, or below the commands that run it as another user. */
    private static ProcessHandle jvm(ChildJvm app) {
        ProcessHandle child = ProcessHandle.of(app.pid()).orElseThrow();
        return runs(child, APP) ? child : child.descendants().filter(h -> runs(h, APP)).findFirst()
                .orElseThrow(() -> new AssertionError("no JVM running " + APP + " below " + app.pid()));
    }

    /** Whether {@code process} is a JVM with {@code argument} (runuser and the launcher name it too, as theirs). */
    private static boolean runs(ProcessHandle process, String argument) {
        return process.info().command().map(c -> c.endsWith("/java")).orElse(false)
                && process.info().arguments().map(a -> List.of(a).contains(argument)).orElse(false);
    }

    private Path agentJar() {
        return dir.resolve("mixflame.jar");
    }

    /**
     * Starts the pool (200 workers, each burning 2 ms every 400 ms: about one core in all) under the agent with
     * one-second periods and {@code engine}, behind {@code prefix}.
     */
    private ChildJvm start(List<String> prefix, Path jdk, String engine) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.copy(BuiltJars.agent(), agentJar(), StandardCopyOption.REPLACE_EXISTING);
        Path target = Files.createDirectories(dir.resolve("classes/io/mixflame/testapp"));
        try (Stream<Path> compiled = Files.list(Path.of(AttachIT.TEST_CLASSES, "io/mixflame/testapp"))) {
            for (Path c : compiled.filter(p -> p.getFileName().toString().startsWith("ServicePoolApp")
                    || p.getFileName().toString().startsWith("ThreadCpu")).toList()) {
                Files.copy(c, target.resolve(c.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path profiles = Files.createDirectories(dir.resolve("profiles"));
        Files.setPosixFilePermissions(profiles, PosixFilePermissions.fromString("rwxrwxrwx"));
        ChildJvm app = ChildJvm.start(prefix, jdk, dir, List.of("-javaagent:" + agentJar()
                + "=start,event=cpu,engine=" + engine + ",interval=10ms,threads,loop=1s,keep=100,file="
                + profiles.resolve("p.collapsed"),
                "-cp", dir.resolve("classes").toString(), APP, Integer.toString(WORKERS), "60", "2000", "400"));
        app.awaitOutput("started", Duration.ofSeconds(60));
        return app;
    }

    /**
     * Reads the profile's one-second periods as they are written, each line to {@code lines}, until {@code enough}
     * holds (or a minute passes); returns the header line.
     */
    private String readPeriods(ChildJvm app, Lines lines, java.util.function.BooleanSupplier enough) throws Exception {
        Path profiles = dir.resolve("profiles");
        List<Path> read = new ArrayList<>();
        String header = "";
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && !enough.getAsBoolean() && app.isAlive()) {
            Thread.sleep(500);
            List<Path> written;
            try (Stream<Path> files = Files.list(profiles)) {
                written = files.filter(p -> p.getFileName().toString().startsWith("p")
                        && p.getFileName().toString().endsWith(".collapsed")).sorted().toList();
            }
            // The newest may still be written.
            for (Path p : written.subList(0, Math.max(0, written.size() - 1))) {
                if (!read.contains(p)) {
                    read.add(p);
                    for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                        if (line.startsWith("# mixflame ")) {
                            header = line;
                        }
                        lines.add(line, line.startsWith("#") || line.isBlank() ? 0
                                : Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)));
                    }
                }
            }
        }
        return header;
    }

    /** Threads of process {@code pid} in a tracing stop ('t' in their stat line), by tid. */
    private static List<String> stoppedThreads(long pid) throws Exception {
        List<String> stopped = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    if (stat.charAt(stat.lastIndexOf(')') + 2) == 't') {
                        stopped.add(task.getFileName().toString());
                    }
                } catch (java.io.IOException ended) {
                    // The thread ended meanwhile.
                }
            }
        }
        return stopped;
    }
}
