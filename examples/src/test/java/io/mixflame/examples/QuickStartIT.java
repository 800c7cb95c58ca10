package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command, as written there (after its build step): the flame graph names the sampler's own
 * cost, and its stacks have native code below Java frames (zlib under {@code java.util.zip}) and between them
 * (libc's qsort between the Java caller and the Java comparator it calls back).
 */
class QuickStartIT {
    private static final String JAVA_FRAME = ".*_\\[[ji01]\\]$";

    @TempDir
    Path dir;

    // The README's command runs on the default java, as a reader's would.
    @Test
    void firstCommandShowsNativeFramesAndTheSamplersCost() throws Exception {
        Path jdk = TestJdks.running();
        List<String> command = readmeProfileCommand();
        String html = Files.readString(run(jdk, command, null), StandardCharsets.UTF_8);
        assertThat(html).as("the flame graph's title").containsPattern(
                "<h1>[^<]*\\d+ samples, \\d+ lost, \\d+ dropped, [\\d.]+ µs p50 / [\\d.]+ µs p99 per sample, sampler");

        // The same command with collapsed output, whose stacks can be read back frame by frame.
        List<List<String>> stacks = Files.readAllLines(run(jdk, command, ".collapsed"), StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> Arrays.asList(l.substring(0, l.lastIndexOf(' ')).split(";"))).toList();
        assertThat(stacks).as("a java.util.zip frame with zlib's native code below it")
                .anyMatch(s -> below(s, f -> f.startsWith("java/util/zip/") && f.matches(JAVA_FRAME),
                        f -> isNative(f) && (f.contains("deflate") || f.contains("inflate"))));
        // Below qsort, JNA's callback proxy: the comparator itself is about one in a hundred of those samples (JNA's
        // reflection and boxing take the rest), too few to be sure of in one run of the command.
        assertThat(stacks).as("libc's qsort between Java frames: the caller above, the Java callback below")
                .anyMatch(s -> {
                    int qsort = indexOf(s, 0, f -> isNative(f) && f.contains("qsort"));
                    return qsort > 0 && indexOf(s.subList(0, qsort), 0, f -> f.matches(JAVA_FRAME)) >= 0
                            && indexOf(s, qsort + 1, f -> f.contains("CallbackReference$DefaultCallbackProxy.callback")
                            && f.matches(JAVA_FRAME)) > qsort;
                });
    }

    /** The README's first command after {@code &&}, split into words. */
    private static List<String> readmeProfileCommand() throws Exception {
        List<String> lines = Files.readAllLines(BuiltJars.projectRoot().resolve("README.md"), StandardCharsets.UTF_8);
        int start = lines.indexOf("## Quick start");
        assertThat(start).as("README's quick start").isNotNegative();
        String first = lines.subList(start, lines.size()).stream().filter(l -> l.startsWith("mvn ")).findFirst()
                .orElseThrow();
        assertThat(first).contains(" && java ");
        return List.of(first.substring(first.indexOf(" && java ") + " && java ".length()).split(" +"));
    }

    /** Runs the command on {@code jdk} with the built jars, its output file in the test's directory. */
    private Path run(Path jdk, List<String> command, String newExtension) throws Exception {
        Path runDir = Files.createTempDirectory(dir, "run");
        Path out = null;
        List<String> args = new ArrayList<>();
        for (String word : command) {
            if (word.startsWith("-javaagent:agent/target/mixflame.jar=")) {
                String options = word.substring(word.indexOf('=') + 1);
                String file = options.replaceAll(".*file=([^,]+).*", "$1");
                String name = newExtension == null ? file : file.replaceAll("\\.[a-z]+$", newExtension);
                out = runDir.resolve(name);
                // ann: the stacks are checked frame by frame, Java frames told from native ones by their suffix.
                String annotated = newExtension == null ? "" : ",ann";
                word = "-javaagent:" + BuiltJars.agent() + "=" + options.replace("file=" + file, "file=" + out)
                        + annotated;
            } else if (word.equals("examples/target/mixflame-examples.jar")) {
                word = BuiltJars.examples().toString();
            }
            args.add(word);
        }
        assertThat(out).as("the agent's file= in %s", command).isNotNull();
        try (ChildJvm app = ChildJvm.start(jdk, runDir, args)) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
        assertThat(out).isRegularFile();
        return out;
    }

    private static boolean isNative(String frame) {
        return !frame.matches(".*_\\[.\\]$") && !frame.startsWith("[");
    }

    /** Whether a frame matching {@code below} comes after (is called by) one matching {@code above}. */
    private static boolean below(List<String> stack, Predicate<String> above, Predicate<String> below) {
        int a = indexOf(stack, 0, above);
        return a >= 0 && indexOf(stack, a + 1, below) > a;
    }

    private static int indexOf(List<String> stack, int from, Predicate<String> which) {
        for (int i = from; i < stack.size(); i++) {
            if (which.test(stack.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
