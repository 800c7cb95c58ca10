package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.FrameType;
import io.mixflame.symbolize.NamedFrame;
import io.mixflame.testsupport.ChildProcess;
import io.mixflame.testsupport.NativeWalk;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Java → JNA → libc qsort → JNA callback → Java comparator, walked as one stack in true call order. */
class JnaCallbackWalkTest {


    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.ChildProcess#jdks")
    void callbackStackJoinsJavaAndNativeInOrder(Path jdk) throws Exception {
        try (ChildProcess app = ChildProcess.java(jdk, List.of(), "io.mixflame.testapp.QsortApp")) {
            app.readUntil("ready");
            long tid = app.threadNamed("mf-qsort");
            List<NamedFrame> frames;
            try (NativeWalk walk = new NativeWalk(app.pid())) {
                frames = walk.walkMixed(tid);
            }
            List<String> names = frames.stream().map(f -> f.type() == FrameType.NATIVE && f.module() != null
                    ? f.module() + ":" + f.name() : f.name()).toList();
            String described = String.join("\n  ", names);
            int comparator = indexOf(names, "io/mixflame/testapp/QsortApp.compareParkingOnce");
            int qsort = firstAfter(frames, comparator, f -> "libc.so.6".equals(f.module()) && f.name().contains("sort"));
            int caller = indexOf(names, "io/mixflame/testapp/QsortApp.sortWithCallback");
            assertThat(comparator).as(described).isNotNegative();
            assertThat(qsort).as("libc's qsort below the comparator:\n  %s", described).isGreaterThan(comparator);
            assertThat(caller).as("the Java caller below qsort:\n  %s", described).isGreaterThan(qsort);
            assertThat(frames.subList(comparator, caller))
                    .as("JNA's native frames between the Java parts:\n  %s", described)
                    .anyMatch(f -> f.module() != null && f.module().startsWith("jna"));
            assertThat(frames).as(described).noneMatch(f -> f.type() == FrameType.MARKER);
            assertThat(names.get(names.size() - 1)).as(described).endsWith("clone3");
        }
    }

    private static int indexOf(List<String> names, String name) {
        return names.indexOf(name);
    }

    private static int firstAfter(List<NamedFrame> frames, int from, java.util.function.Predicate<NamedFrame> test) {
        for (int i = Math.max(from, 0); i < frames.size(); i++) {
            if (test.test(frames.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
