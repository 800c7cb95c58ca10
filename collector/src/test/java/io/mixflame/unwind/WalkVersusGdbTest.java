package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.NativeWalk;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds a program whose thread blocks at the end of a known chain (app → libmfb, C without frame pointers →
 * libmfa, C++ in a namespace), walks that thread from its {@code /proc} syscall line alone, and checks the frames
 * against gdb's backtrace of the same thread.
 */
class WalkVersusGdbTest {
    private static final Pattern GDB_FRAME = Pattern.compile("^#(\\d+)\\s+(?:0x([0-9a-f]+) in )?(.+?) \\(.*$");

    @TempDir
    Path dir;

    /** A frame as gdb prints it. */
    record GdbFrame(long pc, String name) {
    }

    @Test
    void walkOfABlockedThreadEqualsGdbsBacktrace() throws Exception {
        Path build = Path.of(getClass().getResource("/native/walkchain/build.sh").toURI());
        run(List.of("sh", build.toString(), dir.toString()));
        Process app = new ProcessBuilder(dir.resolve("app").toString()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("ready");
            long pid = app.pid();
            long tid = workerThread(pid);
            awaitBlockedInNanosleep(pid, tid);

            List<NativeWalk.WalkFrame> walked;
            try (NativeWalk walk = new NativeWalk(pid)) {
                walked = walk.walkBlocked(tid);
            }
            List<GdbFrame> gdb = gdbBacktrace(pid, tid);

            assertThat(walked).noneMatch(NativeWalk.WalkFrame::isMarker);
            assertThat(walked).hasSameSizeAs(gdb);
            for (int i = 0; i < gdb.size(); i++) {
                NativeWalk.WalkFrame ours = walked.get(i);
                assertThat(ours.pc()).as("pc of frame %d (%s)", i, gdb.get(i).name()).isEqualTo(gdb.get(i).pc());
                assertThat(sameFunction(ours.symbol().symbol(), gdb.get(i).name()))
                        .as("frame %d: ours %s, gdb %s", i, ours.symbol().symbol(), gdb.get(i).name()).isTrue();
            }
            assertThat(walked.stream().map(f -> f.symbol().symbol())).containsSubsequence(
                    "mixtest::Walker::deepest(int)", "mixtest::Walker::step(int)", "lib_a_entry", "lib_b_inner",
                    "lib_b_outer", "app_level2", "app_level1", "worker", "start_thread");
        } finally {
            app.destroyForcibly();
            app.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Function names agree when equal, or when both are names glibc gives one function: gdb, reading libc's debug
     * information, may print the internal alias ({@code __GI___nanosleep}) where the symbol table's first name
     * is another ({@code __nanosleep}). The pc comparison has already shown it is the same code.
     */
    static boolean sameFunction(String ours, String gdbs) {
        if (ours == null) {
            return gdbs.equals("??");
        }
        return ours.equals(gdbs) || glibcBase(ours).equals(glibcBase(gdbs));
    }

    private static String glibcBase(String name) {
        String n = name.startsWith("__GI_") ? name.substring(5) : name;
        while (n.startsWith("_")) {
            n = n.substring(1);
        }
        return n;
    }

    private static long workerThread(long pid) throws Exception {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.map(p -> Long.parseLong(p.getFileName().toString())).filter(t -> t != pid).findFirst()
                    .orElseThrow();
        }
    }

    private static void awaitBlockedInNanosleep(long pid, long tid) throws Exception {
        Path syscall = Path.of("/proc/" + pid + "/task/" + tid + "/syscall");
        for (int i = 0; i < 100; i++) {
            if (Files.readString(syscall).startsWith("230 ")) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("worker never blocked in clock_nanosleep: " + Files.readString(syscall));
    }

    static List<GdbFrame> gdbBacktrace(long pid, long tid) throws Exception {
        String output = run(List.of("gdb", "-nx", "-batch", "-p", Long.toString(pid), "-ex", "thread apply all bt"));
        List<GdbFrame> frames = new ArrayList<>();
        boolean inThread = false;
        for (String line : output.split("\n")) {
            if (line.startsWith("Thread ")) {
                inThread = line.contains("(LWP " + tid + ")");
                continue;
            }
            Matcher m = GDB_FRAME.matcher(line);
            if (inThread && m.matches()) {
                assertThat(m.group(2)).as("gdb frame without an address (an inlined frame): %s", line).isNotNull();
                frames.add(new GdbFrame(Long.parseUnsignedLong(m.group(2), 16), m.group(3)));
            }
        }
        assertThat(frames).as("gdb output:\n%s", output).isNotEmpty();
        return frames;
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s:\n%s", command, out).isZero();
        return out;
    }
}
