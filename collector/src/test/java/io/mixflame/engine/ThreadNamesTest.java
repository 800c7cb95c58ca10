package io.mixflame.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.ThreadSource;
import io.mixflame.profile.Frame;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadNamesTest {
    /** The kernel's view: names of living threads only. */
    private final Map<Integer, String> kernel = new HashMap<>();
    private final ThreadSource threads = new ThreadSource() {
        @Override
        public int count() {
            return kernel.size();
        }

        @Override
        public int[] list() {
            return kernel.keySet().stream().mapToInt(Integer::intValue).toArray();
        }

        @Override
        public String name(int tid) {
            return kernel.get(tid);
        }

        @Override
        public long cpuTimeNanos(int tid) {
            return -1;
        }
    };
    private final ThreadNames names = new ThreadNames(threads, null);

    @Test
    void aThreadRecordedWhileItLivedKeepsItsNameAfterItEnded() {
        names.record(7, "EarlyEndingWorker");
        assertThat(names.frame(7).name()).isEqualTo("[EarlyEndingWorker tid=7]");
    }

    @Test
    void aThreadNeverRecordedIsNamedByTheKernelWhileItLivesAndByItsIdAfter() {
        kernel.put(8, "rocksdb:low");
        assertThat(names.frame(8).name()).isEqualTo("[rocksdb:low tid=8]");
        assertThat(names.frame(9).name()).isEqualTo("[thread 9 tid=9]");
    }

    @Test
    void aThreadThatEndedUnrecordedIsCalledWhatTheKernelReportedWhenItWasNamed() {
        names.recordKernel(10, "GC Thread#3");
        kernel.put(11, "pool-1-thread-1");
        names.recordKernel(11, "java");
        assertThat(names.frame(10).name()).isEqualTo("[GC Thread#3 tid=10]");
        assertThat(names.frame(11).name()).as("a living thread's name comes first").isEqualTo("[pool-1-thread-1 tid=11]");
    }

    @Test
    void theKernelsNameGivenForTheMomentGivesWayToTheJavaNameRecordedAfter() {
        kernel.put(12, "EarlyEndingWork");
        Frame early = names.frame(12);
        assertThat(early.name()).isEqualTo("[EarlyEndingWork tid=12]");
        names.record(12, "EarlyEndingWorker");
        assertThat(names.frame(12).name()).isEqualTo("[EarlyEndingWorker tid=12]");
    }

    @Test
    void aRenameGivesTheThreadANewRootFrameAndLeavesOthersAlone() {
        names.record(7, "NameBeforeRename");
        names.record(8, "Other");
        Frame before = names.frame(7);
        Frame other = names.frame(8);
        assertThat(names.frame(7)).isSameAs(before);
        names.record(7, "NameBeforeRename");
        assertThat(names.frame(7)).as("the same name again is no rename").isSameAs(before);
        names.record(7, "RenamedMidway");
        assertThat(names.frame(7).name()).isEqualTo("[RenamedMidway tid=7]");
        assertThat(names.frame(8)).isEqualTo(other);
    }
}
