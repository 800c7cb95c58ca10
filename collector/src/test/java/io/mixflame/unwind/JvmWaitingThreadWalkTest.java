package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryMapping;
import io.mixflame.testsupport.NativeWalk;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Walks a thread of a child JVM parked in {@code Object.wait()}: the native part, from the futex wait in libc
 * through libjvm, must reach the first frame in the code cache without an {@code [unknown]}.
 */
class JvmWaitingThreadWalkTest {


    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.ChildProcess#jdks")
    void nativeFramesReachTheCodeCacheWithoutUnknown(Path jdk) throws Exception {
        String classes = Path.of("target/test-classes").toAbsolutePath().toString();
        Process app = new ProcessBuilder(jdk.resolve("bin/java").toString(), "-cp", classes,
                "io.mixflame.testapp.WaitingApp", "120").redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("ready");
            long pid = app.pid();
            long tid = threadNamed(pid, "mf-waiter");
            try (NativeWalk walk = new NativeWalk(pid)) {
                List<NativeWalk.WalkFrame> frames = walk.walkBlocked(tid);
                List<MemoryMapping> maps = walk.modules().mappings();
                int firstJava = -1;
                for (int i = 0; i < frames.size(); i++) {
                    if (!frames.get(i).isMarker() && inAnonymousCode(maps, frames.get(i).pc())) {
                        firstJava = i;
                        break;
                    }
                }
                String described = describe(frames);
                assertThat(firstJava).as("a frame in the code cache in\n%s", described).isPositive();
                List<NativeWalk.WalkFrame> nativePart = frames.subList(0, firstJava);
                assertThat(nativePart).as(described).noneMatch(NativeWalk.WalkFrame::isMarker);
                assertThat(nativePart).as(described).allMatch(f -> f.symbol().module() != null);
                assertThat(nativePart.stream().map(f -> f.symbol().module()))
                        .as(described).contains("libc.so.6", "libjvm.so");
                assertThat(nativePart.get(0).symbol().module()).as(described).isEqualTo("libc.so.6");
            }
        } finally {
            app.destroyForcibly();
            app.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static boolean inAnonymousCode(List<MemoryMapping> maps, long pc) {
        return maps.stream().anyMatch(m -> m.contains(pc) && m.executable() && !m.isFile() && !m.path().startsWith("["));
    }

    private static String describe(List<NativeWalk.WalkFrame> frames) {
        StringBuilder sb = new StringBuilder();
        for (NativeWalk.WalkFrame f : frames) {
            sb.append(String.format("  0x%x %s%n", f.pc(), f.isMarker() ? "[marker " + f.kind() + "]"
                    : f.symbol().displayName() + " (" + f.symbol().module() + ")"));
        }
        return sb.toString();
    }

    private static long threadNamed(long pid, String name) throws Exception {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                    return Long.parseLong(task.getFileName().toString());
                }
            }
        }
        throw new AssertionError("no thread " + name + " in " + pid);
    }
}
