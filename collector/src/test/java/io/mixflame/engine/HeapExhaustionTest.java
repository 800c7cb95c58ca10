package io.mixflame.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeapExhaustionTest {
    @Test
    void onceReachedItStaysReachedAndReachingAgainNeverThrows() {
        HeapExhaustion heap = new HeapExhaustion("perf");
        assertThat(heap.reached()).isFalse();
        heap.reach();
        heap.reach();
        assertThat(heap.reached()).isTrue();
    }
}
