package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PushQueueTest {

    @Test
    void aFullQueueDropsTheOldestButNeverThePeriodBeingSent() {
        PushQueue<String> queue = new PushQueue<>(2);
        assertThat(queue.add("a", null)).isNull();
        assertThat(queue.add("b", null)).isNull();
        assertThat(queue.add("c", null)).isEqualTo("a");
        assertThat(queue.add("d", "b")).as("b is being sent").isEqualTo("c");
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.peek()).isEqualTo("b");
        assertThat(queue.remove("b")).isTrue();
        assertThat(queue.remove("b")).isFalse();
        assertThat(queue.peek()).isEqualTo("d");
    }
}
