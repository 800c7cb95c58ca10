package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -javaagent:mixflame.jar=start,file=x.jfr} on the {@code mixed} example: the JDK's own reader finds
 * execution samples with zlib's native code below {@code Deflater.deflateBytesBytes}, Java frames at the source line
 * of their call, and sample times spread over the run — with the perf engine in the JVM and with the helper engine
 * sampling it from another process.
 */
class JfrOutputIT {

    @TempDir
    Path dir;

    // The file is the profiler's writing, read by that JDK's tool: one JDK.
    @Test
    void agentWritesAJfrRecordingWithNativeFramesBelowJavaFrames() throws Exception {
        Path jdk = TestJdks.newest();
        recordAndCheck(jdk, "", "perf");
    }

    /** The helper engine samples from another process and streams lines and times back over a pipe. */
    @Test
    void theHelperEngineSendsLinesAndTimesToo() throws Exception {
        recordAndCheck(Path.of(System.getProperty("java.home")), "engine=helper,", "helper");
    }

    private void recordAndCheck(Path jdk, String engineOption, String engine) throws Exception {
        Path out = dir.resolve("x.jfr");
        List<String> args = List.of("-javaagent:" + BuiltJars.agent() + "=start," + engineOption + "file=" + out, "-jar",
                BuiltJars.examples().toString(), "mixed", "--seconds", "6");
        java.time.Instant launched = java.time.Instant.now();
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
        java.time.Instant exited = java.time.Instant.now();
        List<java.time.Instant> times = new ArrayList<>();

        List<List<String>> stacks = new ArrayList<>(); // root first: class.method or the native function
        java.util.Set<Integer> deflateCallLines = new java.util.TreeSet<>();
        List<String> engines = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(out)) {
            if (e.getEventType().getName().equals("mixflame.Note")) {
                notes.add(e.getString("text"));
            }
            if (e.getEventType().getName().equals("jdk.ActiveSetting") && "engine".equals(e.getString("name"))) {
                engines.add(e.getString("value"));
            }
            if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
                List<String> names = new ArrayList<>();
                List<RecordedFrame> leafFirst = e.getStackTrace().getFrames();
                for (RecordedFrame f : leafFirst) {
                    names.add(0, f.getMethod().getType().getName() + "." + f.getMethod().getName() + " " + f.getType());
                }
                stacks.add(names);
                times.add(e.getStartTime());
                for (int i = 1; i < leafFirst.size(); i++) {
                    if (leafFirst.get(i - 1).getMethod().getName().equals("deflate")
                            && leafFirst.get(i).getMethod().getType().getName().endsWith(".ZlibPhase")) {
                        deflateCallLines.add(leafFirst.get(i).getLineNumber());
                    }
                }
            }
        }

        assertThat(engines).containsExactly(engine);
        if (engine.equals("helper")) {
            // The helper is a JVM of its own, with a heap limit of its own, and the note says what it holds.
            assertThat(notes).as("notes").anyMatch(n -> n.matches(
                    "helper process: a JVM of its own \\(pid \\d+; heap at most 64m, .*\\), resident at most \\d+ MiB"));
        }
        assertThat(stacks).as("samples").hasSizeGreaterThan(50);
        assertThat(stacks).as("zlib's deflate (a Native frame) below Deflater.deflateBytesBytes")
                .anyMatch(s -> {
                    int java = indexOf(s, "java.util.zip.Deflater.deflateBytesBytes ");
                    return java >= 0 && s.subList(java + 1, s.size()).stream()
                            .anyMatch(f -> f.contains(".deflate") && f.endsWith(" Native") && !f.startsWith("java."));
                });
        assertThat(deflateCallLines).as("lines of ZlibPhase's frames below Deflater.deflate")
                .containsExactly(lineOfDeflateCall());
        assertThat(times).as("sample times within the run").allMatch(t -> !t.isBefore(launched) && !t.isAfter(exited));
        java.time.Instant first = times.stream().min(java.time.Instant::compareTo).orElseThrow();
        java.time.Instant last = times.stream().max(java.time.Instant::compareTo).orElseThrow();
        assertThat(Duration.between(first, last)).as("samples spread over the 6 s of work")
                .isGreaterThan(Duration.ofSeconds(4));
        assertThat(times.stream().map(t -> Duration.between(first, t).toSeconds()).distinct())
                .as("seconds of the run with samples").hasSizeGreaterThanOrEqualTo(5);
    }

    /** The line of the example's source that calls {@code deflater.deflate}: where its frame's samples must be. */
    private static int lineOfDeflateCall() throws java.io.IOException {
        List<String> source = Files.readAllLines(Path.of("src/main/java/io/mixflame/examples/mixed/ZlibPhase.java"));
        for (int i = 0; i < source.size(); i++) {
            if (source.get(i).contains("deflater.deflate(")) {
                return i + 1;
            }
        }
        throw new AssertionError("ZlibPhase.java no longer calls deflater.deflate");
    }

    private static int indexOf(List<String> stack, String prefix) {
        for (int i = 0; i < stack.size(); i++) {
            if (stack.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
