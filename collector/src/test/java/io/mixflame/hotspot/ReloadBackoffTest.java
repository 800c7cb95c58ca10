package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReloadBackoffTest {
    private static final long S = 1_000_000_000L;

    @Test
    void readingsThatFindNothingNewWaitTwiceAsLongUpToAMinute() {
        ReloadBackoff b = new ReloadBackoff();
        b.read(0, 10);
        assertThat(b.due(S - 1)).isFalse();
        assertThat(b.due(S)).isTrue();
        b.read(S, 10);
        assertThat(b.due(2 * S)).isFalse();
        assertThat(b.due(3 * S)).isTrue();
        long now = 3 * S;
        for (int i = 0; i < 10; i++) {
            b.read(now, 10);
            now += ReloadBackoff.LONGEST_NANOS;
        }
        // The last reading was at now - LONGEST: the wait has grown to the longest and no further.
        assertThat(b.due(now - 1)).isFalse();
        assertThat(b.due(now)).as("never longer than the longest wait").isTrue();
    }

    @Test
    void aReadingThatFindsMoreGoesBackToTheShortestWait() {
        ReloadBackoff b = new ReloadBackoff();
        b.read(0, 10);
        b.read(S, 10);
        b.read(3 * S, 10);
        b.read(7 * S, 11);
        assertThat(b.due(8 * S)).isTrue();
    }
}
