package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DrainPacingTest {
    private static final long MS = 1_000_000L;
    /** The engine's defaults: 32 pages of 4 KiB, 16 KiB stacks (seven records per ring), a pool of 128. */
    private static final long RING = 32 * 4096;
    private static final int STACK = 16 * 1024;

    @Test
    void aQuietProcessIsDrainedEveryFewTicksButNeverPastHalfARing() {
        DrainPacing p = new DrainPacing(10 * MS, RING, STACK, 128);
        assertThat(p.waitNanos()).as("starts at the interval").isEqualTo(10 * MS);
        for (int i = 0; i < 10; i++) {
            p.drained(2, false);
        }
        assertThat(p.longestNanos()).as("seven records per ring: three ticks").isEqualTo(30 * MS);
        assertThat(p.waitNanos()).isEqualTo(30 * MS);
    }

    @Test
    void theWaitNeverExceedsATenthOfASecondNorFallsBelowTheInterval() {
        DrainPacing slow = new DrainPacing(50 * MS, 1 << 24, STACK, 128);
        for (int i = 0; i < 20; i++) {
            slow.drained(0, false);
        }
        assertThat(slow.waitNanos()).isEqualTo(DrainPacing.MAX_WAIT_NANOS);

        DrainPacing tiny = new DrainPacing(200 * MS, 4096, STACK, 128);
        tiny.drained(0, false);
        assertThat(tiny.waitNanos()).as("a ring smaller than a record: drain every tick").isEqualTo(200 * MS);
    }

    @Test
    void manyBusyThreadsOrLostSamplesShortenTheWaitAgain() {
        DrainPacing p = new DrainPacing(MS, RING, STACK, 128);
        for (int i = 0; i < 5; i++) {
            p.drained(1, false);
        }
        assertThat(p.waitNanos()).isEqualTo(3 * MS);
        p.drained(33, false);
        assertThat(p.waitNanos()).as("more than a quarter of the pool in one drain").isEqualTo(MS + MS / 2);
        p.drained(20, false);
        assertThat(p.waitNanos()).as("between an eighth and a quarter: kept").isEqualTo(MS + MS / 2);
        p.drained(0, true);
        assertThat(p.waitNanos()).as("lost samples: halved, not below the interval").isEqualTo(MS);
        p.drained(0, true);
        assertThat(p.waitNanos()).isEqualTo(MS);
    }
}
