package io.mixflame.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Without the agent the API runs the code it is given and nothing else: no state, no threads, no allocation. */
class LabelsWithoutAgentTest {
    private static final Map<String, String> TENANT = Map.of("tenant", "acme");

    @Test
    void theCodeRunsAndItsResultComesBack() {
        int[] ran = new int[1];
        Labels.run("tenant", "acme", () -> ran[0]++);
        Labels.run(TENANT, () -> ran[0]++);
        String got = Labels.get(TENANT, () -> "result");
        try (Labels.Scope scope = Labels.scope("tenant", "acme")) {
            ran[0]++;
        }

        assertThat(ran[0]).isEqualTo(3);
        assertThat(got).isEqualTo("result");
        assertThat(Labels.recording()).isFalse();
    }

    @Test
    void exceptionsOfTheCodePassThrough() {
        assertThatThrownBy(() -> Labels.run("tenant", "acme", () -> {
            throw new IllegalStateException("from the body");
        })).isInstanceOf(IllegalStateException.class).hasMessage("from the body");
    }

    @Test
    void badKeysAreRefusedAsWithTheAgent() {
        assertThatThrownBy(() -> Labels.run("not a key", "v", () -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a key");
        assertThatThrownBy(() -> Labels.scope(Map.of("a=b", "v"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Labels.scope("k", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Labels.scope("thread", "main")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void itStartsNoThreadAndAllocatesNothing() {
        Set<String> threadsBefore = threadNames();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Runnable body = () -> { };
        for (int i = 0; i < 100_000; i++) { // warm: the first calls load and link classes
            Labels.run("tenant", "acme", body);
            Labels.scope("tenant", "acme").close();
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1_000_000; i++) {
            Labels.run("tenant", "acme", body);
            try (Labels.Scope scope = Labels.scope("tenant", "acme")) {
                body.run();
            }
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;

        // A few hundred bytes of noise (the bean's own calls); one object per call would be tens of megabytes.
        assertThat(allocated).isLessThan(64 * 1024);
        assertThat(threadNames()).isEqualTo(threadsBefore);
    }

    private static Set<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).collect(Collectors.toSet());
    }
}
