package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnwalkedSamplesTest {
    private final UnwalkedSamples unwalked = new UnwalkedSamples();
    private final List<String> taken = new ArrayList<>();

    private void take() {
        unwalked.take((tid, count, lost) -> taken.add((lost ? "lost " : "dropped ") + tid + " x" + count));
    }

    @Test
    void droppedSamplesAreCountedByThreadAndLostOnesByNone() {
        assertThat(unwalked.pending()).isFalse();
        unwalked.dropped(7);
        unwalked.dropped(7);
        unwalked.dropped(9);
        unwalked.lost(0);
        unwalked.lost(5);
        assertThat(unwalked.pending()).isTrue();
        take();
        assertThat(taken).containsExactly("dropped 7 x2", "dropped 9 x1", "lost 0 x5");
        assertThat(unwalked.pending()).isFalse();
        taken.clear();
        take();
        assertThat(taken).as("taken once").isEmpty();
    }

    @Test
    void beyondItsThreadsTheTableCountsUnderNoThreadAndLosesNoSample() {
        for (int tid = 1; tid <= 1100; tid++) {
            unwalked.dropped(tid);
        }
        take();
        long all = taken.stream().mapToLong(t -> Long.parseLong(t.substring(t.indexOf(" x") + 2))).sum();
        assertThat(all).isEqualTo(1100);
        assertThat(taken).hasSizeLessThanOrEqualTo(1024).anyMatch(t -> t.startsWith("dropped 0 x"));
    }
}
