package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JVM run under a seccomp filter that refuses {@code perf_event_open}, as a container's default profile does (a
 * launcher of the test's own, built with gcc): {@code engine=auto} falls back to threads stopped by a helper process
 * with ptrace, and the profile keeps its mixed stacks, zlib's {@code deflate} below the Java that called it; with
 * ptrace refused as well, it ends on JFR and says why each engine was refused.
 */
class PtraceEngineIT {
    private static final String APP = "io.mixflame.testapp.DeflateApp";
    /** Samples judged: the deflating thread's share is about a half, so a quarter is far outside chance. */
    private static final long SAMPLES = 300;

    @TempDir
    Path dir;

    /** The first JDK as root, the second as an ordinary user. */
    static Stream<Arguments> jdksCrosswise() {
        List<Path> jdks = TestJdks.all();
        List<Arguments> all = new ArrayList<>();
        for (int i = 0; i < jdks.size(); i++) {
            all.add(Arguments.of(jdks.get(i), i % 2 == 0 ? "root" : "nobody"));
        }
        return all.stream();
    }

    @ParameterizedTest
    @MethodSource("jdksCrosswise")
    void withPerfEventsRefusedThreadsStoppedByTheHelperKeepNativeFramesBelowJava(Path jdk, String user)
            throws Exception {
        Run run = profile(jdk, user, "perf_event_open", p -> samples(p) >= SAMPLES);
        assertThat(run.header).as("the engine that ran").contains("engine=ptrace");
        long total = 0;
        long deflate = 0;
        for (String line : run.stacks) {
            long n = count(line);
            total += n;
            int java = line.indexOf("java/util/zip/Deflater.");
            int zlib = line.indexOf(";deflate");
            if (line.startsWith("[deflater tid=") && java >= 0 && zlib > java) {
                deflate += n;
            }
        }
        assertThat(total).as("samples").isGreaterThanOrEqualTo(SAMPLES);
        assertThat((double) deflate / total).as("samples in zlib's deflate below Deflater, of %d", total)
                .isGreaterThan(0.25);
        assertThat(run.stderr).as("why perf was not used").contains("perf engine refused");
    }

    @Test
    void withPtraceRefusedTooItEndsOnJfrAndSaysWhyEachEngineWasRefused() throws Exception {
        Run run = profile(TestJdks.all().get(0), "root", "perf_event_open,ptrace", p -> samples(p) > 0);
        assertThat(run.header).contains("engine=jfr");
        assertThat(run.stderr).contains("perf engine refused").contains("ptrace engine refused")
                .contains("cannot be stopped");
    }

    private record Run(String header, List<String> stacks, String stderr) {
    }

    private static long count(String line) {
        return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static long samples(List<String> stacks) {
        return stacks.stream().mapToLong(PtraceEngineIT::count).sum();
    }

    /**
     * Runs the app under the agent (as {@code user}) through the launcher that refuses {@code denied}, reads its
     * one-second periods until {@code enough} holds of their stacks (or a minute passes), and stops it.
     */
    private Run profile(Path jdk, String user, String denied,
                        java.util.function.Predicate<List<String>> enough) throws Exception {
        Path deny = dir.resolve("deny");
        StacksIT.run("gcc", "-O1", "-o", deny.toString(),
                Path.of("target/test-classes/native/seccomp/deny.c").toAbsolutePath().toString());
        List<String> prefix = new ArrayList<>();
        if (!user.equals("root")) {
            boolean present = new ProcessBuilder("id", user).start().waitFor() == 0
                    && new ProcessBuilder("sh", "-c", "command -v runuser").start().waitFor() == 0
                    && "root".equals(System.getProperty("user.name"));
            Assumptions.assumeTrue(present, "not run: needs root, runuser and a user " + user);
            prefix.addAll(List.of("runuser", "-u", user, "--"));
        }
        prefix.addAll(List.of(deny.toString(), denied, "--"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path agent = Files.copy(BuiltJars.agent(), dir.resolve("mixflame.jar"), StandardCopyOption.REPLACE_EXISTING);
        Path target = Files.createDirectories(dir.resolve("classes/io/mixflame/testapp"));
        for (String c : List.of("DeflateApp", "ServicePoolApp")) {
            Files.copy(Path.of(AttachIT.TEST_CLASSES, "io/mixflame/testapp/" + c + ".class"),
                    target.resolve(c + ".class"), StandardCopyOption.REPLACE_EXISTING);
        }
        try (Stream<Path> lambdas = Files.list(Path.of(AttachIT.TEST_CLASSES, "io/mixflame/testapp"))) {
            for (Path c : lambdas.filter(p -> p.getFileName().toString().startsWith("DeflateApp$")).toList()) {
                Files.copy(c, target.resolve(c.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path profiles = Files.createDirectories(dir.resolve("profiles"));
        Files.setPosixFilePermissions(profiles, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> java = List.of("-javaagent:" + agent + "=start,event=cpu,interval=10ms,threads,loop=1s,keep=100,"
                + "file=" + profiles.resolve("p.collapsed"), "-cp", dir.resolve("classes").toString(), APP, "60");
        List<String> stacks = new ArrayList<>();
        List<Path> read = new ArrayList<>();
        String header = "";
        String stderr;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try (ChildJvm app = ChildJvm.start(prefix, jdk, dir, java)) {
            app.awaitOutput("started", Duration.ofSeconds(60));
            while (System.nanoTime() < deadline && !enough.test(stacks) && app.isAlive()) {
                Thread.sleep(500);
                List<Path> written;
                try (Stream<Path> files = Files.list(profiles)) {
                    written = files.filter(p -> p.getFileName().toString().endsWith(".collapsed")).sorted().toList();
                }
                // The newest may still be written.
                for (Path p : written.subList(0, Math.max(0, written.size() - 1))) {
                    if (!read.contains(p)) {
                        read.add(p);
                        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                            if (line.startsWith("# mixflame ")) {
                                header = line;
                            } else if (!line.startsWith("#") && !line.isBlank()) {
                                stacks.add(line);
                            }
                        }
                    }
                }
            }
            stderr = app.stderr();
        }
        return new Run(header, stacks, stderr);
    }
}
