package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code stacks PID} on a JVM, against jstack: the same Java frames in order, with native frames in place. */
class StacksIT {
    private static final Pattern JSTACK_THREAD = Pattern.compile("^\"([^\"]+)\" .*");
    private static final Pattern JSTACK_FRAME = Pattern.compile("^\\s+at ([^(]+)\\(.*");
    private static final Pattern OURS_THREAD = Pattern.compile("^\"(.+)\" tid=(\\d+).* captured=([a-z ]+?)( \\(incomplete\\))?$");

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void javaFramesMatchJstackAndEveryThreadIsWalkedToItsStart(Path jdk) throws Exception {
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of("-cp", AttachIT.TEST_CLASSES,
                "io.mixflame.testapp.ParkedChainsApp"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            String pid = Long.toString(app.pid());
            CommandRun stacks = CommandRun.tool(jdk, dir.resolve("stacks"), List.of("stacks", pid));
            assertThat(stacks.status()).as(stacks.stderr()).isZero();
            Map<String, List<String>> ours = parse(stacks.stdout(), OURS_THREAD, Pattern.compile("^\\s+at ([^(]+)\\(.*"));
            Map<String, List<String>> jstack = parse(run(jdk.resolve("bin/jstack").toString(), pid), JSTACK_THREAD, JSTACK_FRAME);

            for (String thread : List.of("mf-wait", "mf-park", "mf-sleep", "main")) {
                assertThat(ours.get(thread)).as("%s in\n%s", thread, stacks.stdout()).isEqualTo(jstack.get(thread));
            }
            assertThat(ours.get("mf-park")).containsSubsequence("io.mixflame.testapp.ParkedChainsApp.parkInner",
                    "io.mixflame.testapp.ParkedChainsApp.parkMiddle", "io.mixflame.testapp.ParkedChainsApp.parkOuter");

            String[] blocks = stacks.stdout().split("\n\n");
            int walked = 0;
            for (String block : blocks) {
                List<String> lines = block.lines().toList();
                Matcher m = OURS_THREAD.matcher(lines.get(0));
                if (!m.matches()) {
                    continue;
                }
                walked++;
                assertThat(m.group(4)).as("thread %s is walked completely:\n%s", m.group(1), block).isNull();
                String last = lines.get(lines.size() - 1).strip();
                if (m.group(2).equals(pid)) {
                    // The launcher's first thread starts in its executable's _start, which Debian's java strips.
                    assertThat(block).as(block).contains("__libc_start_main");
                } else {
                    assertThat(last).as("thread %s ends at its start:\n%s", m.group(1), block)
                            .matches(".*(clone3|start_thread).*");
                }
                if (m.group(1).startsWith("mf-")) {
                    assertThat(block).as(block).contains("libc.so.6!").contains("libjvm.so!").contains("[kernel]");
                }
            }
            assertThat(walked).as("threads walked, the VM's own among them").isGreaterThan(8);
            assertThat(stacks.stdout()).contains("\"VM Thread\"").contains("\"GC Thread#0\"")
                    .containsPattern("\"C[12] CompilerThread0\"");
        }
    }

    private static Map<String, List<String>> parse(String text, Pattern thread, Pattern frame) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : text.split("\n")) {
            Matcher t = thread.matcher(line);
            if (t.matches()) {
                current = new ArrayList<>();
                result.put(t.group(1), current);
                continue;
            }
            Matcher f = frame.matcher(line);
            if (current != null && f.matches()) {
                current.add(f.group(1));
            }
        }
        return result;
    }

    static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s:\n%s", List.of(command), out).isZero();
        return out;
    }
}
