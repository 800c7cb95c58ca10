package io.mixflame.engine.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A thread running in native code is told from one blocked there by the CPU it used between two samples. */
class NativeSampleCpuFilterTest {
    static volatile long sink;

    @Test
    void aBusyThreadCountsAndABlockedOneDoesNot() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch blockedStarted = new CountDownLatch(1);
        Thread busy = new Thread(() -> {
            long x = 1;
            while (!stop.get()) {
                x = x * 31 + 7;
            }
            sink = x;
        });
        Thread blocked = new Thread(() -> {
            blockedStarted.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                // ended by the test
            }
        });
        busy.start();
        blocked.start();
        blockedStarted.await();
        try {
            NativeSampleCpuFilter filter = new NativeSampleCpuFilter();
            assertThat(filter.running(busy.getId(), System.nanoTime())).as("a first sample sets the baseline")
                    .isFalse();
            filter.running(blocked.getId(), System.nanoTime());
            // Half of the wall time on a CPU: with two cores and this thread mostly asleep, the busy thread has one.
            boolean counted = false;
            for (int i = 0; i < 50 && !counted; i++) {
                Thread.sleep(40);
                counted = filter.running(busy.getId(), System.nanoTime());
            }
            assertThat(counted).as("the busy thread, within 50 tries").isTrue();
            assertThat(filter.running(busy.getId(), System.nanoTime()))
                    .as("a sample a moment later (the same batch of JFR's stream) shares the decision").isTrue();
            Thread.sleep(NativeSampleCpuFilter.DECISION_NANOS / 1_000_000 + 20);
            assertThat(filter.running(blocked.getId(), System.nanoTime())).as("the blocked thread").isFalse();
            assertThat(filter.running(Long.MAX_VALUE, System.nanoTime())).as("a thread that does not exist")
                    .isFalse();
        } finally {
            stop.set(true);
            blocked.interrupt();
            busy.join();
            blocked.join();
        }
    }
}
