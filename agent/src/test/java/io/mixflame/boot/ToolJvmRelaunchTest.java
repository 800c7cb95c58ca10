package io.mixflame.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When {@code record} runs in a second JVM, and that JVM's command line. */
class ToolJvmRelaunchTest {
    private static final String JAVA = "/opt/jdk/bin/java";
    private static final String JAR = "/tools/mixflame.jar";
    private static final List<String> ARGS = List.of("record", "--pid", "42", "-f", "out.html");

    @Test
    void onlyRecordIsRelaunchedOnceAndNotWhenOptedOut() {
        assertThat(ToolJvmRelaunch.wanted(new String[] {"record", "--pid", "1"}, null, null)).isTrue();
        assertThat(ToolJvmRelaunch.wanted(new String[] {"record"}, null, "true")).isTrue();
        assertThat(ToolJvmRelaunch.wanted(new String[] {"record", "--help"}, null, null)).isFalse();
        assertThat(ToolJvmRelaunch.wanted(new String[] {"stacks", "1"}, null, null)).isFalse();
        assertThat(ToolJvmRelaunch.wanted(new String[0], null, null)).isFalse();
        assertThat(ToolJvmRelaunch.wanted(new String[] {"record", "--pid", "1"}, "12345", null))
                .as("the second JVM records itself").isFalse();
        assertThat(ToolJvmRelaunch.wanted(new String[] {"record", "--pid", "1"}, null, "false")).isFalse();
    }

    @Test
    void theSecondJvmKeepsTheFirstsOptionsAndAddsC1AloneAndTheSerialCollector() {
        List<String> command = ToolJvmRelaunch.childCommand(JAVA, List.of("-Xmx200m", "-Dproxy=a b", "-jar",
                "mixflame.jar", "record", "ignored"), JAR, ARGS, 340_000_000L);
        assertThat(command).containsExactly(JAVA, "-Xmx200m", "-Dproxy=a b", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dmixflame.relaunched=340000000", "-jar", JAR, "record", "--pid", "42", "-f",
                "out.html");
    }

    @Test
    void aCollectorTheUserChoseIsKept() {
        List<String> command = ToolJvmRelaunch.childCommand(JAVA, List.of("-XX:+UseZGC", "-jar", "m.jar"), JAR,
                ARGS, -1);
        assertThat(command).contains("-XX:+UseZGC", "-XX:TieredStopAtLevel=1", "-Dmixflame.relaunched=-1")
                .doesNotContain("-XX:+UseSerialGC");
    }

    @Test
    void aCompilerTheUserChoseIsLeftAlone() {
        for (String chosen : List.of("-XX:TieredStopAtLevel=4", "-XX:-TieredCompilation", "-Xint")) {
            assertThat(ToolJvmRelaunch.childCommand(JAVA, List.of(chosen, "-jar", "m.jar"), JAR, ARGS, 0))
                    .as(chosen).isNull();
        }
    }

    @Test
    void withoutMinusJarNothingIsRelaunchedAndWithoutAListingTheOptionsAreDropped() {
        assertThat(ToolJvmRelaunch.childCommand(JAVA, List.of("-cp", "m.jar", "io.mixflame.boot.CliBoot"), JAR,
                ARGS, 0)).isNull();
        // Windows lists no arguments of a process: the first JVM's options cannot be passed on.
        assertThat(ToolJvmRelaunch.childCommand(JAVA, null, JAR, ARGS, 0)).containsExactly(JAVA,
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dmixflame.relaunched=0", "-jar", JAR, "record",
                "--pid", "42", "-f", "out.html");
    }
}
