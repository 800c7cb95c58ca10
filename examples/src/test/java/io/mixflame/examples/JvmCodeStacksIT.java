package io.mixflame.examples;

import static io.mixflame.examples.ThreadStacks.anyFrame;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.TestJdks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stacks that hold in the code the JVM generates: the {@code jvmcode} example (a thread per shape: array copies
 * under {@code StringBuilder.delete}, megamorphic virtual and interface calls, checksum and digest intrinsics, the
 * clock) profiled at 1 ms, as {@code -javaagent} and attached at run time without {@code DebugNonSafepoints} on the
 * command line on the first JDK here, and attached with it on every other. Each thread is judged on its own samples, as
 * many as the margins need: stubs named by HotSpot's names ({@code vtable stub}, {@code itable stub}, the
 * arraycopy and digest stubs), nearly every stack whole down to {@code Thread.run}, and next to no
 * {@code [unknown]}.
 */
class JvmCodeStacksIT {
    /** Per thread: a share of 0.5% is then five samples, and four standard errors of 80% are 4 points. */
    private static final long NEEDED = 1000;
    private static final List<String> THREADS = List.of("jvmcode-arraycopy", "jvmcode-virtual", "jvmcode-interface",
            "jvmcode-digests", "jvmcode-clock");

    @TempDir
    Path dir;

    /**
     * Every JDK once with its inlined methods exact (the stubs and their names are each JVM's own), and the attach
     * without the flag once. The agent turns {@code DebugNonSafepoints} on before the compilers start, so under the
     * agent the flag on the command line changes nothing, and an attach with the flag is as exact: the agent on the
     * first JDK, an attach without the flag on it too, and an attach with the flag on each further JDK.
     */
    static Stream<Arguments> cases() {
        List<Path> jdks = TestJdks.all();
        List<Arguments> all = new ArrayList<>();
        all.add(Arguments.of(jdks.get(0), "agent", false));
        all.add(Arguments.of(jdks.get(0), "attach", false));
        for (Path jdk : jdks.subList(1, jdks.size())) {
            all.add(Arguments.of(jdk, "attach", true));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} DebugNonSafepoints on the command line: {2}")
    @MethodSource("cases")
    void everyShapeIsWalkedWholeThroughNamedStubs(Path jdk, String mode, boolean debugNonSafepoints) throws Exception {
        ProfilePeriods periods = new ProfilePeriods("samples of the fewest-sampled jvmcode thread", NEEDED,
                Duration.ofMinutes(2), 1000);
        List<Path> profiles = periods.collect(Duration.ofSeconds(7), JvmCodeStacksIT::fewestPerThread,
                (i, length) -> mode.equals("agent") ? underAgent(jdk, debugNonSafepoints, i, length)
                        : attached(jdk, debugNonSafepoints, i, length)).profiles();

        ThreadStacks copying = ThreadStacks.of("jvmcode-arraycopy", profiles);
        judgeWhole(copying, 0.005);
        // The agent turns DebugNonSafepoints on, but the compilers read it only when they compile: code compiled
        // before an attach records its inlined methods at safepoints only, and an array copy there is charged to
        // whichever StringBuilder method the nearest safepoint belongs to. Exact below the agent or the flag.
        boolean exact = mode.equals("agent") || debugNonSafepoints;
        Predicate<String> caller = exact ? f -> f.endsWith("StringBuilder.delete")
                : f -> f.startsWith("java/lang/") && f.contains("StringBuilder.");
        assertThat(copying.share(anyFrame(caller).and(anyFrame(f -> f.contains("arraycopy")))))
                .as("%s over a named arraycopy stub in\n%s", exact ? "StringBuilder.delete" : "StringBuilder's code",
                        copying.top(10)).isGreaterThan(0.8);

        ThreadStacks virtual = ThreadStacks.of("jvmcode-virtual", profiles);
        judgeWhole(virtual, 0.005);
        assertThat(virtual.share(anyFrame(f -> f.equals("vtable stub")))).as("vtable stubs in\n%s", virtual.top(10))
                .isGreaterThan(0.01);

        ThreadStacks calling = ThreadStacks.of("jvmcode-interface", profiles);
        judgeWhole(calling, 0.005);
        assertThat(calling.share(anyFrame(f -> f.equals("itable stub")))).as("itable stubs in\n%s", calling.top(10))
                .isGreaterThan(0.01);

        ThreadStacks digesting = ThreadStacks.of("jvmcode-digests", profiles);
        judgeWhole(digesting, 0.01);
        for (String stub : List.of("crc32", "adler32", "md5", "sha1", "sha256")) {
            assertThat(digesting.count(anyFrame(f -> !f.contains("/") && f.toLowerCase().contains(stub))))
                    .as("samples in a stub named for %s in\n%s", stub, digesting.top(15)).isPositive();
        }

        ThreadStacks clock = ThreadStacks.of("jvmcode-clock", profiles);
        judgeWhole(clock, 0.01);
        assertThat(clock.share(anyFrame(f -> f.equals("clock_gettime") || f.startsWith("__vdso_"))))
                .as("the vDSO's clock named in\n%s", clock.top(10)).isGreaterThan(0.8);
    }

    /** Stacks whole: few unknown frames, few stacks of one or two frames, nearly all down to Thread.run. */
    private static void judgeWhole(ThreadStacks thread, double most) {
        String top = thread.top(12);
        assertThat(thread.share(anyFrame(f -> f.contains("[unknown]")))).as("[unknown] in\n%s", top).isLessThan(most);
        assertThat(thread.share(s -> s.frames().size() <= 2)).as("stacks of one or two frames in\n%s", top)
                .isLessThan(most);
        assertThat(thread.share(anyFrame(f -> f.equals("java/lang/Thread.run")))).as("down to Thread.run in\n%s", top)
                .isGreaterThan(0.99);
    }

    private static long fewestPerThread(Path profile) throws java.io.IOException {
        long fewest = Long.MAX_VALUE;
        for (String thread : THREADS) {
            fewest = Math.min(fewest, ThreadStacks.of(thread, List.of(profile)).samples());
        }
        return fewest;
    }

    private Path underAgent(Path jdk, boolean debugNonSafepoints, int index, Duration length) throws Exception {
        Path out = dir.resolve("agent-" + index + ".collapsed");
        List<String> args = new ArrayList<>(flags(debugNonSafepoints));
        args.addAll(List.of("-javaagent:" + BuiltJars.agent() + "=start,interval=1ms,threads,file=" + out,
                "-jar", BuiltJars.examples().toString(), "jvmcode", "--seconds", Long.toString(length.toSeconds())));
        try (ChildJvm app = ChildJvm.start(jdk, java.nio.file.Files.createDirectories(dir.resolve("agent-" + index)),
                args)) {
            assertThat(app.awaitExit(length.plus(Duration.ofMinutes(2)))).as(app.stderr()).isZero();
        }
        return out;
    }

    /** The example runs unprofiled until it has started; profiling is attached then, and stopped after length. */
    private Path attached(Path jdk, boolean debugNonSafepoints, int index, Duration length) throws Exception {
        Path out = dir.resolve("attach-" + index + ".collapsed");
        List<String> args = new ArrayList<>(flags(debugNonSafepoints));
        args.addAll(List.of("-jar", BuiltJars.examples().toString(), "jvmcode", "--seconds",
                Long.toString(length.toSeconds() + 120)));
        try (ChildJvm app = ChildJvm.start(jdk, java.nio.file.Files.createDirectories(dir.resolve("attach-" + index)),
                args)) {
            app.awaitOutput("jvmcode: pid", Duration.ofMinutes(1));
            String pid = Long.toString(app.pid());
            CommandRun start = CommandRun.tool(jdk, dir.resolve("start-" + index),
                    List.of("attach", pid, "start,interval=1ms,threads,file=" + out));
            assertThat(start.status()).as(start.stderr() + start.stdout()).isZero();
            TimeUnit.MILLISECONDS.sleep(length.toMillis());
            CommandRun stop = CommandRun.tool(jdk, dir.resolve("stop-" + index), List.of("attach", pid, "stop"));
            assertThat(stop.status()).as(stop.stderr() + stop.stdout()).isZero();
        }
        return out;
    }

    private static List<String> flags(boolean debugNonSafepoints) {
        return debugNonSafepoints ? List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints") : List.of();
    }
}
