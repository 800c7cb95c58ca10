package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SamplePoolTest {

    @Test
    void afterTheWarmUpTheWalkerMayFallFiveSecondsOfSamplesBehindWithinTheWarmPool() {
        // 2 CPUs at 20 ms: 100 samples a second, 500 in five.
        assertThat(SamplePool.steadyBound(100)).isEqualTo(500);
        // One CPU at 100 ms: never fewer than the buffers kept for reuse.
        assertThat(SamplePool.steadyBound(10)).isEqualTo(SamplePool.POOL);
        // 2 CPUs at 10 ms: 1 000 in five seconds.
        assertThat(SamplePool.steadyBound(200)).isEqualTo(1000);
        // 16 CPUs at 1 ms: the warm pool's memory at most.
        assertThat(SamplePool.steadyBound(16_000)).isEqualTo(SamplePool.WARM_POOL);
    }

    @Test
    void aPoolPastItsWarmUpHandsOutBuffersUpToItsSteadyBoundThenNone() {
        SamplePool pool = new SamplePool(64, 0, 100);
        long afterWarmUp = io.mixflame.engine.CostNotes.WARM_UP_NANOS + 1;
        int taken = 0;
        while (pool.take(afterWarmUp) != null) {
            taken++;
            assertThat(taken).as("buffers handed out").isLessThanOrEqualTo(SamplePool.WARM_POOL);
        }
        assertThat(taken).isEqualTo(SamplePool.steadyBound(100));
    }
}
