package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.FrameType;
import io.mixflame.symbolize.NamedFrame;
import io.mixflame.testsupport.ChildProcess;
import io.mixflame.testsupport.NativeWalk;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A thread parked at the end of a known 12-deep Java chain, walked from outside: its Java frames must equal what
 * {@code Thread.getStackTrace()} says (class and method; line where interpreted), in order, followed by native
 * frames down to the thread's start. Once interpreted ({@code -Xint}), once after the chain is JIT-compiled.
 */
class JavaChainWalkTest {

    static Stream<Arguments> runs() {
        return ChildProcess.jdks().flatMap(jdk -> Stream.of(
                Arguments.of(jdk, List.of("-Xint"), "cold"),
                Arguments.of(jdk, List.of("-Xbatch"), "warm")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void javaFramesEqualGetStackTrace(Path jdk, List<String> options, String mode) throws Exception {
        try (ChildProcess app = ChildProcess.java(jdk, options, "io.mixflame.testapp.ChainApp", mode)) {
            List<String[]> expected = app.readUntil("ready").stream().filter(l -> l.startsWith("frame "))
                    .map(l -> l.split(" ")).toList();
            assertThat(expected).hasSizeGreaterThanOrEqualTo(14);
            long tid = app.threadNamed("mf-chain");
            List<NamedFrame> frames;
            try (NativeWalk walk = new NativeWalk(app.pid())) {
                frames = walk.walkMixed(tid);
            }
            String described = frames.stream().map(f -> "  " + f.type() + " " + f.name() + (f.line() > 0 ? ":" + f.line() : ""))
                    .collect(Collectors.joining("\n"));
            List<NamedFrame> java = frames.stream().filter(f -> f.javaClass() != null).toList();
            assertThat(java).as(described).hasSameSizeAs(expected);
            for (int i = 0; i < expected.size(); i++) {
                String[] e = expected.get(i);
                NamedFrame f = java.get(i);
                assertThat(f.javaClass().replace('/', '.')).as("class of Java frame %d\n%s", i, described).isEqualTo(e[1]);
                assertThat(f.javaMethod()).as("method of Java frame %d\n%s", i, described).isEqualTo(e[2]);
                if (f.type() == FrameType.INTERPRETED && Integer.parseInt(e[3]) > 0) {
                    assertThat(f.line()).as("line of Java frame %d\n%s", i, described).isEqualTo(Integer.parseInt(e[3]));
                }
            }
            if (mode.equals("cold")) {
                assertThat(java).as(described).allMatch(f -> f.type() == FrameType.INTERPRETED);
            } else {
                assertThat(java.stream().filter(f -> f.javaMethod().matches("c\\d+")))
                        .as(described).allMatch(f -> f.type() != FrameType.INTERPRETED);
            }
            assertThat(frames).as(described).noneMatch(f -> f.type() == FrameType.MARKER);
            int lastJava = frames.indexOf(java.get(java.size() - 1));
            List<String> below = frames.subList(lastJava + 1, frames.size()).stream().map(NamedFrame::name).toList();
            assertThat(below).as(described).contains("start_thread");
            assertThat(below.get(below.size() - 1)).as(described).endsWith("clone3");
            assertThat(frames.get(0).module()).as(described).isEqualTo("libc.so.6");
        }
    }
}
