package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.TestJdks;
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
 * {@code stacks} on a C program whose thread blocks in a signal handler running on an alternate signal stack: the
 * walk goes through the signal frame into the interrupted function on the thread's own stack and down to
 * {@code start_thread}, frame for frame as gdb's backtrace of that thread.
 */
class SignalStackIT {
    private static final Pattern GDB_FRAME = Pattern.compile("^#(\\d+)\\s+(?:0x([0-9a-f]+) in )?(.+?) \\(.*$");
    private static final Pattern OUR_FRAME = Pattern.compile("^    (?:(\\S+?)!)?([^\\[]+?)(?:\\+0x[0-9a-f]+)?$");

    @TempDir
    Path dir;

    @Test
    void walkCrossesTheSignalFrameAndTheStackSwitchLikeGdb() throws Exception {
        Path source = Path.of("target/test-classes/native/sigaltstack/sigalt.c").toAbsolutePath();
        Path binary = dir.resolve("sigalt");
        StacksIT.run("gcc", "-O1", "-o", binary.toString(), source.toString(), "-lpthread");
        Process app = new ProcessBuilder(binary.toString()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("ready");
            long pid = app.pid();
            long tid;
            try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
                tid = tasks.map(p -> Long.parseLong(p.getFileName().toString())).filter(t -> t != pid).findFirst().orElseThrow();
            }
            List<String> gdb = gdbFunctions(StacksIT.run("gdb", "-nx", "-batch", "-p", Long.toString(pid), "-ex",
                    "thread apply all bt"), tid);
            CommandRun stacks = CommandRun.tool(TestJdks.all().get(0), dir.resolve("stacks"),
                    List.of("stacks", Long.toString(pid), "--native-only"));
            assertThat(stacks.status()).as(stacks.stderr()).isZero();
            List<String> ours = ourFunctions(stacks.stdout(), tid);
            assertThat(ours).as("ours:\n%s\ngdb:\n%s", stacks.stdout(), gdb).hasSameSizeAs(gdb);
            for (int i = 0; i < gdb.size(); i++) {
                assertThat(sameFunction(ours.get(i), gdb.get(i))).as("frame %d: ours %s, gdb %s", i, ours.get(i), gdb.get(i))
                        .isTrue();
            }
            assertThat(ours).containsSubsequence("handler_blocks", "on_signal", "__restore_rt", "interrupted_work",
                    "worker", "start_thread");
        } finally {
            app.destroyForcibly();
            app.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** gdb prints the signal trampoline as "<signal handler called>"; glibc may be named by an internal alias. */
    private static boolean sameFunction(String ours, String gdbs) {
        if (gdbs.equals("<signal handler called>")) {
            return ours.equals("__restore_rt");
        }
        return base(ours).equals(base(gdbs));
    }

    private static String base(String name) {
        String n = name.startsWith("__GI_") ? name.substring(5) : name;
        while (n.startsWith("_")) {
            n = n.substring(1);
        }
        return n;
    }

    private static List<String> gdbFunctions(String output, long tid) {
        List<String> frames = new ArrayList<>();
        boolean inThread = false;
        for (String line : output.split("\n")) {
            if (line.startsWith("Thread ")) {
                inThread = line.contains("(LWP " + tid + ")");
                continue;
            }
            if (inThread && line.matches("^#\\d+\\s+<signal handler called>$")) {
                frames.add("<signal handler called>");
                continue;
            }
            Matcher m = GDB_FRAME.matcher(line);
            if (inThread && m.matches()) {
                frames.add(m.group(3));
            }
        }
        return frames;
    }

    private static List<String> ourFunctions(String output, long tid) {
        List<String> frames = new ArrayList<>();
        boolean inThread = false;
        for (String line : output.split("\n")) {
            if (line.startsWith("\"")) {
                inThread = line.contains(" tid=" + tid + " ");
                continue;
            }
            Matcher m = OUR_FRAME.matcher(line);
            if (inThread && m.matches() && !line.endsWith("[kernel]")) {
                frames.add(m.group(2));
            }
        }
        return frames;
    }
}
