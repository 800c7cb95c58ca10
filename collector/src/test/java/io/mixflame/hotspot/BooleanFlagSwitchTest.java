package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The flag switch in a child JVM that turns its own flags on and reports them through the JVM's management view
 * (an independent reader of the same flag), on every JDK here.
 */
class BooleanFlagSwitchTest {
    static Stream<Path> jdks() {
        return ChildProcess.jdks();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void debugNonSafepointsTurnsOnAndOnlyBooleansAreWritten(Path jdk) throws Exception {
        try (ChildProcess app = ChildProcess.java(jdk, List.of("-XX:+UnlockDiagnosticVMOptions"),
                "io.mixflame.testapp.FlagSwitchApp", "DebugNonSafepoints", "DebugNonSafepoints",
                "MaxJavaStackTraceDepth", "NoSuchFlagOfMixflame")) {
            List<String> lines = app.readUntil("done");
            assertThat(lines).contains(
                    "DebugNonSafepoints TURNED_ON false true",
                    "DebugNonSafepoints ALREADY_ON true true",
                    // An int whose first byte is 0 (1024): written as a boolean it would have become 1025.
                    "MaxJavaStackTraceDepth NOT_WRITTEN 1024 1024",
                    "NoSuchFlagOfMixflame NO_SUCH_FLAG - -");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aFlagOnFromTheCommandLineIsLeftAsItIs(Path jdk) throws Exception {
        try (ChildProcess app = ChildProcess.java(jdk, List.of("-XX:+UnlockDiagnosticVMOptions",
                "-XX:+DebugNonSafepoints"), "io.mixflame.testapp.FlagSwitchApp", "DebugNonSafepoints")) {
            assertThat(app.readUntil("done")).contains("DebugNonSafepoints ALREADY_ON true true");
        }
    }
}
