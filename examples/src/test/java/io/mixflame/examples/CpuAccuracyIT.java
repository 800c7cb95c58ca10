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

/**
 * The {@code cpu} example under {@code -javaagent}: the profile must show its known 50/30/20 split, judged on as
 * many samples as margins of 8 points need, however many periods that takes on this machine.
 */
class CpuAccuracyIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#runningOnly")
    void sharesOfAlphaBetaGammaMatchTheWorkload(Path jdk) throws Exception {
        ProfilePeriods periods = new ProfilePeriods("samples in alpha, beta and gamma",
                CollapsedShares.samplesForMargin(0.08), Duration.ofMinutes(2), 100);
        CollapsedShares profile = periods.collect(Duration.ofSeconds(10),
                p -> CollapsedShares.read(p).independentCpuSplitSamples(),
                (i, length) -> {
                    Path out = dir.resolve("cpu-" + i + ".collapsed");
                    try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                            "-javaagent:" + BuiltJars.agent() + "=start,interval=10ms,file=" + out,
                            "-jar", BuiltJars.examples().toString(), "cpu", "--seconds",
                            Long.toString(length.toSeconds())))) {
                        assertThat(app.awaitExit(length.plus(Duration.ofSeconds(110)))).as(app.stderr()).isZero();
                    }
                    return out;
                }).shares();
        profile.assertCpuSplit();
    }
}
