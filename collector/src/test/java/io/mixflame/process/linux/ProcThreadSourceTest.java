package io.mixflame.process.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The threads of this JVM as {@code /proc} lists them. */
class ProcThreadSourceTest {
    private final ProcThreadSource threads = new ProcThreadSource(ProcessHandle.current().pid());

    @Test
    void aStartedThreadIsListedWithItsNameAndGoneOnceItEnds() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        int[] tid = new int[1];
        Thread t = new Thread(() -> {
            try {
                tid[0] = Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
                started.countDown();
                finish.await();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "mf-listed");
        t.start();
        started.await();
        assertThat(threads.list()).contains(tid[0]);
        assertThat(threads.name(tid[0])).isEqualTo("mf-listed");
        assertThat(threads.count()).isGreaterThanOrEqualTo(2);
        finish.countDown();
        t.join();
        // join returns when the Java thread is done; the kernel task ends a moment later.
        for (int wait = 0; wait < 500 && Arrays.stream(threads.list()).anyMatch(x -> x == tid[0]); wait++) {
            Thread.sleep(10);
        }
        assertThat(threads.list()).doesNotContain(tid[0]);
        assertThat(threads.name(tid[0])).isNull();
    }

    @Test
    void theCountAgreesWithTheList() {
        // Other threads of the test JVM may start or end between the two reads; retry until a quiet moment.
        for (int attempt = 0; attempt < 20; attempt++) {
            int before = threads.count();
            int listed = threads.list().length;
            if (before == threads.count()) {
                assertThat(listed).isEqualTo(before);
                return;
            }
        }
        throw new AssertionError("the thread count never held still");
    }

    @Test
    void aProcessThatDoesNotExistHasNoThreads() {
        ProcThreadSource gone = new ProcThreadSource(Integer.MAX_VALUE);
        assertThat(gone.count()).isEqualTo(-1);
        assertThat(gone.list()).isEmpty();
        assertThat(Arrays.stream(threads.list()).allMatch(t -> t > 0)).isTrue();
    }

    @Test
    void cpuTimeIsReadAfterTheNameWhateverTheNameHolds() {
        String line = "4242 (a) b (c) d) R 1 2 3 4 5 6 7 8 9 10 250 125 0 0 20 0 1 0 100 0 0";
        assertThat(ProcThreadSource.cpuTimeOfStatLine(line)).isEqualTo(375 * 10_000_000L);
    }

    @Test
    void cpuTimeFromSchedstatIsItsFirstNumberInNanoseconds() {
        assertThat(ProcThreadSource.firstNumber(java.nio.ByteBuffer.wrap("3956648 115028 1\n".getBytes())))
                .isEqualTo(3_956_648L);
        assertThat(ProcThreadSource.firstNumber(java.nio.ByteBuffer.wrap("x".getBytes()))).isEqualTo(-1);
    }

    @Test
    void aBusyThreadsCpuTimeGrowsAndAnEndedThreadHasNone() throws Exception {
        int self = Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        long before = threads.cpuTimeNanos(self);
        long spin = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < spin) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        assertThat(x).isNotNegative();
        assertThat(before).isNotNegative();
        assertThat(threads.cpuTimeNanos(self)).as("after 300 ms of spinning").isGreaterThan(before + 100_000_000L);
        assertThat(threads.cpuTimeNanos(Integer.MAX_VALUE)).isEqualTo(-1);
    }
}
