package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void waitsDoubleUpToTheLongestEachJitteredIntoItsUpperHalf() {
        Backoff backoff = new Backoff(1_000, 60_000);
        long[] bounds = {1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000};
        for (long bound : bounds) {
            assertThat(backoff.nextMillis()).isBetween(bound / 2, bound);
        }
        backoff.reset();
        assertThat(backoff.nextMillis()).isBetween(500L, 1_000L);
    }
}
