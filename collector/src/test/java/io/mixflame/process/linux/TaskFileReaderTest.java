package io.mixflame.process.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A thread's {@code /proc} file read again through a descriptor held open gives the kernel's text of the moment;
 * descriptors are held for another process's threads only, and given back for threads no longer listed.
 */
class TaskFileReaderTest {
    @Test
    void aHeldFileIsReadAnewAndGivenBackWhenItsThreadIsNoLongerListed() throws Exception {
        Process busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try (TaskFileReader reader = new TaskFileReader(busy.pid(), "schedstat", 128)) {
            int tid = (int) busy.pid();
            long first = ran(reader, tid);
            assertThat(reader.held()).as("descriptors held for another process").isEqualTo(1);
            long later = first;
            for (int i = 0; i < 100 && later == first; i++) {
                Thread.sleep(20);
                later = ran(reader, tid);
            }
            assertThat(later).as("the CPU time read again through the same descriptor").isGreaterThan(first);
            assertThat(reader.held()).isEqualTo(1);
            reader.retainOnly(new int[] {tid + 1}, 1);
            assertThat(reader.held()).as("after a listing without the thread").isZero();
        } finally {
            busy.destroyForcibly().waitFor();
        }
    }

    @Test
    void theOwnProcessesFilesAreOpenedForEachReadAndAGoneThreadReadsAsMinusOne() throws Exception {
        long self = ProcessHandle.current().pid();
        try (TaskFileReader reader = new TaskFileReader(self, "schedstat", 128)) {
            assertThat(reader.read((int) self)).isPositive();
            assertThat(reader.held()).as("descriptors held in the profiler's own process").isZero();
            assertThat(reader.read(Integer.MAX_VALUE)).isEqualTo(-1);
        }
    }

    private static long ran(TaskFileReader reader, int tid) {
        int n = reader.read(tid);
        assertThat(n).isPositive();
        String line = new String(reader.buffer().array(), 0, n, StandardCharsets.US_ASCII);
        return Long.parseLong(line.substring(0, line.indexOf(' ')));
    }
}
