package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NewThreadsTest {
    @Test
    void eachThreadIsQueuedOnceAndAFullQueueCountsWhatItDropped() {
        NewThreads threads = new NewThreads(4);
        assertThat(threads.offerIfNew(10)).isTrue();
        assertThat(threads.offerIfNew(10)).as("seen").isFalse();
        assertThat(threads.offerIfNew(11)).isTrue();
        assertThat(threads.offerIfNew(12)).isTrue();
        assertThat(threads.offerIfNew(13)).isTrue();
        assertThat(threads.offerIfNew(14)).as("queue full").isFalse();
        assertThat(threads.overflowed()).isEqualTo(1);
        assertThat(threads.poll()).isEqualTo(10);
        assertThat(threads.poll()).isEqualTo(11);
        assertThat(threads.poll()).isEqualTo(12);
        assertThat(threads.poll()).isEqualTo(13);
        assertThat(threads.poll()).as("empty").isZero();
        assertThat(threads.offerIfNew(0)).as("no thread").isFalse();
    }

    @Test
    void aFullSetIsEmptiedSoThatItStaysBounded() {
        NewThreads threads = new NewThreads(1 << 15);
        int queued = 0;
        for (int tid = 1; tid <= 40_000; tid++) {
            queued += threads.offerIfNew(tid) ? 1 : 0;
            threads.poll();
        }
        assertThat(queued).isEqualTo(40_000);
        assertThat(threads.offerIfNew(40_000)).as("seen since the set was last emptied").isFalse();
    }
}
