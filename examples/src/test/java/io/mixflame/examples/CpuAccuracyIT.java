package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code cpu} example under {@code -javaagent}: the profile must show its known 50/30/20 split. */
class CpuAccuracyIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void sharesOfAlphaBetaGammaMatchTheWorkload(Path jdk) throws Exception {
        Path out = dir.resolve("cpu.collapsed");
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,interval=10ms,file=" + out,
                "-jar", BuiltJars.examples().toString(), "cpu", "--seconds", "10"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
        CollapsedShares profile = CollapsedShares.read(out);
        long alpha = profile.samplesWithFrameEnding("alpha");
        long beta = profile.samplesWithFrameEnding("beta");
        long gamma = profile.samplesWithFrameEnding("gamma");
        double all = alpha + beta + gamma;
        assertThat(all).as("samples in alpha, beta and gamma").isGreaterThan(500);
        assertThat(alpha / all).as("alpha share").isCloseTo(0.50, CollapsedShares.chanceMargin(0.50, all));
        assertThat(beta / all).as("beta share").isCloseTo(0.30, CollapsedShares.chanceMargin(0.30, all));
        assertThat(gamma / all).as("gamma share").isCloseTo(0.20, CollapsedShares.chanceMargin(0.20, all));
    }
}
