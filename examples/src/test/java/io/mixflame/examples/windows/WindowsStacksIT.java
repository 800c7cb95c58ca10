package io.mixflame.examples.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.WindowsToolchain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stacks} of a Windows JVM, from another Windows JVM, under Wine: the {@code parked} example stops three
 * threads in known Java call chains and prints each thread's own view of its stack; {@code java -jar mixflame.jar
 * stacks PID}, run by the Windows JRE as a separate process, must show those Java frames in the same order, with
 * native frames of the wait (ntdll, jvm.dll) above them and of the thread's start (jvm.dll) below, and every
 * thread of the process must be walked to where Windows starts threads (kernel32's BaseThreadInitThunk, then ntdll's
 * RtlUserThreadStart): a walk that stops short — in ucrtbase's thread start, say, when the wrong build's unwind data
 * is used — fails here. The same dump with {@code --walker dbghelp} (DbgHelp's StackWalk64 for the native frames)
 * must give the parked threads the same frames.
 */
class WindowsStacksIT {
    private static final Pattern THREAD = Pattern.compile("parked: thread (\\S+): (.*)");
    private static final Pattern PID = Pattern.compile("parked: pid (\\d+)");
    private static final Pattern READY = Pattern.compile("parked: ready");
    private static final Pattern THREAD_HEADER = Pattern.compile("\"[^\"]*\" tid=");
    private static final Pattern JAVA_FRAME = Pattern.compile("^\\s+at ([^(]+)\\(");

    @TempDir
    Path dir;

    @Test
    void javaFramesOfParkedThreadsMatchWhatTheThreadsReportWithNativeFramesAroundThem() throws Exception {
        WindowsToolchain wine = WindowsToolchain.require();
        Process app = wine.startUnderWine(dir, "parked", List.of(wine.javaExe().toString(), "-jar",
                wine.windowsPath(BuiltJars.examples()), "parked", "--seconds", "300"));
        try {
            // The example prints its pid and threads, then "ready": the whole report is there once "ready" is.
            WindowsToolchain.awaitOutput(app, dir, "parked", READY, Duration.ofMinutes(2));
            String report = WindowsToolchain.windowsText(dir.resolve("parked.stdout.txt"));
            Matcher pid = PID.matcher(report);
            assertThat(pid.find()).as(report).isTrue();
            Map<String, List<String>> expected = new LinkedHashMap<>();
            for (String line : report.split("\r?\n")) {
                Matcher m = THREAD.matcher(line);
                if (m.matches()) {
                    expected.put(m.group(1), List.of(m.group(2).split(";")));
                }
            }
            assertThat(expected).as(report).containsOnlyKeys("parked-lock", "parked-sleep", "parked-wait");

            CommandRun stacks = wine.runUnderWine(dir, "stacks", Duration.ofMinutes(3), List.of(
                    wine.javaExe().toString(), "-jar", wine.windowsPath(BuiltJars.agent()), "stacks", pid.group(1)));

            String dump = stacks.stdout().replace("\r\n", "\n");
            assertThat(stacks.status()).as(stacks.stderr() + dump).isZero();
            assertThat(dump).as("the dump's head").contains("(HotSpot JVM)");
            for (Map.Entry<String, List<String>> e : expected.entrySet()) {
                List<String> block = threadBlock(dump, e.getKey());
                assertThat(block).as("%s in\n%s", e.getKey(), dump).isNotEmpty();
                assertThat(block.get(0)).as("how %s was captured", e.getKey()).contains("captured=suspended");
                List<String> frames = block.subList(1, block.size());
                assertThat(javaFrames(frames)).as("Java frames of %s in\n%s", e.getKey(), String.join("\n", block))
                        .containsExactlyElementsOf(e.getValue());
                int firstJava = firstJavaIndex(frames);
                int lastJava = lastJavaIndex(frames);
                List<String> above = frames.subList(0, firstJava);
                List<String> below = frames.subList(lastJava + 1, frames.size());
                assertThat(above).as("native frames of the wait above %s's Java frames", e.getKey())
                        .anyMatch(f -> f.contains("ntdll.dll")).anyMatch(f -> f.contains("jvm.dll"));
                assertThat(below).as("native frames of the thread's start below %s's Java frames", e.getKey())
                        .anyMatch(f -> f.contains("jvm.dll"));
            }
            List<List<String>> threads = threadBlocks(dump);
            assertThat(threads).as(dump).hasSizeGreaterThan(expected.size());
            for (List<String> block : threads) {
                String name = block.get(0);
                List<String> tail = block.subList(Math.max(1, block.size() - 2), block.size()).stream()
                        .map(String::strip).toList();
                assertThat(tail).as("where the walk of %s ends in\n%s", name, String.join("\n", block))
                        .hasSize(2);
                assertThat(tail.get(0)).as("%s's second last frame", name).startsWith("kernel32.dll!BaseThreadInitThunk");
                assertThat(tail.get(1)).as("%s's last frame", name).startsWith("ntdll.dll!RtlUserThreadStart");
            }

            // DbgHelp's StackWalk64 in place of mixflame's PE unwinder: the parked threads, which do not move, get
            // the same frames, Java frames included (the HotSpot unwinder hands over to it and back), as far as it
            // goes — Wine's StackWalk64 cannot unwind jvm.dll's thread start routine, where its walk ends in a marker.
            CommandRun dbghelp = wine.runUnderWine(dir, "stacks-dbghelp", Duration.ofMinutes(3), List.of(
                    wine.javaExe().toString(), "-jar", wine.windowsPath(BuiltJars.agent()), "stacks", pid.group(1),
                    "--walker", "dbghelp"));
            String other = dbghelp.stdout().replace("\r\n", "\n");
            assertThat(dbghelp.status()).as(dbghelp.stderr() + other).isZero();
            for (String name : expected.keySet()) {
                List<String> own = threadBlock(dump, name);
                List<String> walked = threadBlock(other, name);
                assertThat(walked).as("%s walked by StackWalk64", name).hasSizeGreaterThan(2);
                int last = walked.size() - 1;
                List<String> shared = walked.get(last).strip().equals("[unknown]") ? walked.subList(1, last)
                        : walked.subList(1, walked.size());
                assertThat(own.subList(1, own.size())).as("%s: StackWalk64's frames in\n%s", name, other)
                        .startsWith(shared.toArray(new String[0]));
                assertThat(javaFrames(shared)).as("%s: Java frames through StackWalk64", name)
                        .containsExactlyElementsOf(expected.get(name));
            }
        } finally {
            WindowsToolchain.end(app);
        }
    }

    /** The header line and frame lines of one thread in the text dump. */
    private static List<String> threadBlock(String dump, String name) {
        List<String> block = new ArrayList<>();
        for (String line : dump.split("\n")) {
            if (block.isEmpty()) {
                if (line.startsWith("\"" + name + "\" ")) {
                    block.add(line);
                }
            } else if (line.isBlank()) {
                break;
            } else {
                block.add(line);
            }
        }
        return block;
    }

    /** Every thread's header line and frame lines (names may repeat: threads without one are "?"). */
    private static List<List<String>> threadBlocks(String dump) {
        List<List<String>> blocks = new ArrayList<>();
        List<String> block = null;
        for (String line : dump.split("\n")) {
            if (THREAD_HEADER.matcher(line).lookingAt()) {
                block = new ArrayList<>();
                blocks.add(block);
                block.add(line);
            } else if (line.isBlank()) {
                block = null;
            } else if (block != null) {
                block.add(line);
            }
        }
        return blocks;
    }

    private static List<String> javaFrames(List<String> frames) {
        List<String> java = new ArrayList<>();
        for (String f : frames) {
            Matcher m = JAVA_FRAME.matcher(f);
            if (m.find()) {
                java.add(m.group(1));
            }
        }
        return java;
    }

    private static int firstJavaIndex(List<String> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (JAVA_FRAME.matcher(frames.get(i)).find()) {
                return i;
            }
        }
        throw new AssertionError("no Java frame in " + frames);
    }

    private static int lastJavaIndex(List<String> frames) {
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (JAVA_FRAME.matcher(frames.get(i)).find()) {
                return i;
            }
        }
        throw new AssertionError("no Java frame in " + frames);
    }
}
