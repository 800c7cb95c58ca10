package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Periods sized from the rate so far, and a failure that says the rate when the bound comes first. */
class ProfilePeriodsTest {
    @TempDir
    Path dir;

    /** A profiler that keeps {@code perSecond} samples a second: each period's file holds that many per second. */
    private ProfilePeriods.Period steady(double perSecond, List<Duration> asked) {
        return (i, length) -> {
            asked.add(length);
            Path p = dir.resolve("p" + i + ".collapsed");
            Files.writeString(p, "a;alpha " + Math.round(perSecond * length.toSeconds()) + "\n");
            return p;
        };
    }

    @Test
    void oneLongEnoughPeriodIsAllItTakes() throws Exception {
        List<Duration> asked = new ArrayList<>();
        ProfilePeriods.Collected c = new ProfilePeriods("samples", 625, Duration.ofMinutes(4), 100)
                .collect(Duration.ofSeconds(10), p -> CollapsedShares.read(p).totalSamples(), steady(100, asked));
        assertThat(asked).containsExactly(Duration.ofSeconds(10));
        assertThat(c.samples()).isEqualTo(1000);
        assertThat(c.profiles()).hasSize(1);
    }

    @Test
    void aSlowProfilerGetsASecondPeriodSizedFromItsRate() throws Exception {
        List<Duration> asked = new ArrayList<>();
        ProfilePeriods.Collected c = new ProfilePeriods("samples", 625, Duration.ofMinutes(4), 100)
                .collect(Duration.ofSeconds(15), p -> CollapsedShares.read(p).totalSamples(), steady(20, asked));
        // 300 in 15 s: the 325 missing at 20 a second, a quarter more: 21 s (within four times the first).
        assertThat(asked).containsExactly(Duration.ofSeconds(15), Duration.ofSeconds(21));
        assertThat(c.samples()).isGreaterThanOrEqualTo(625);
    }

    @Test
    void aProfilerTooSlowForTheBoundFailsSayingItsRate() {
        List<Duration> asked = new ArrayList<>();
        assertThatThrownBy(() -> new ProfilePeriods("samples in alpha", 625, Duration.ofSeconds(60), 100)
                .collect(Duration.ofSeconds(15), p -> CollapsedShares.read(p).totalSamples(), steady(1, asked)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("only 60 samples in alpha in 60 s of profiling")
                .hasMessageContaining("1.0 per second, where the interval asks for 100 per second")
                .hasMessageContaining("625 that the test's margins need would take 625 s");
        assertThat(asked.get(1)).as("at most four times the first period").isEqualTo(Duration.ofSeconds(45));
    }
}
