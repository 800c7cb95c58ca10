package io.mixflame.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.ThreadSource;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.util.ArrayDeque;
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
    void aNameTheThreadToldAsItStartedIsTakenBeforeTheKernelIsAsked() {
        kernel.put(16, "service-pool-wo");
        ArrayDeque<Object[]> told = new ArrayDeque<>();
        told.add(new Object[] {16, "service-pool-worker-16", false});
        told.add(new Object[] {17, "started-as", false});
        told.add(new Object[] {17, "ended-long-ago", true});
        told.add(new Object[] {18, "NameGivenAtStart", false});
        names.hear(new ThreadLifeNames() {
            @Override
            public int take(ThreadLifeNames.Listener listener) {
                int n = 0;
                for (Object[] t; (t = told.poll()) != null; n++) {
                    listener.told((Integer) t[0], (String) t[1], (Boolean) t[2]);
                }
                return n;
            }

            @Override
            public long dropped() {
                return 0;
            }

            @Override
            public long told() {
                return 2;
            }

            @Override
            public void close() {
            }
        });
        assertThat(names.frame(16).name()).isEqualTo("[service-pool-worker-16 tid=16]");
        assertThat(names.frame(17).name()).as("a thread gone from the kernel's list too, by its last name")
                .isEqualTo("[ended-long-ago tid=17]");
        // A name told at the start stands for the moment only: the thread may rename itself before its work.
        ProfileAccumulator profile = new ProfileAccumulator();
        Frame work = new Frame("Work.run", FrameType.JIT_COMPILED);
        profile.add(new Frame[] {names.frame(18), work}, 2, 0);
        names.record(18, "RenamedBeforeWork");
        Frame renamed = names.frame(18);
        names.renameRoots(profile);
        profile.add(new Frame[] {renamed, work}, 1, 0);
        Profile p = profile.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).singleElement().satisfies(st -> {
            assertThat(p.framesOf(st)[0].name()).isEqualTo("[RenamedBeforeWork tid=18]");
            assertThat(st.samples()).isEqualTo(3);
        });
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
    void samplesAlreadyCountedUnderTheKernelsNameAreRenamedInTheProfileWhenTheJavaNameIsRecorded() {
        ProfileAccumulator profile = new ProfileAccumulator();
        kernel.put(13, "service-pool-wo");
        kernel.put(14, "rocksdb:low");
        Frame work = new Frame("Pool.work", FrameType.JIT_COMPILED);
        profile.add(new Frame[] {names.frame(13), work}, 2, 0);
        profile.add(new Frame[] {names.frame(14), work}, 2, 0);
        names.record(13, "service-pool-worker-7");
        Frame renamed = names.frame(13);
        names.renameRoots(profile);
        profile.add(new Frame[] {renamed, work}, 1, 0);
        Profile p = profile.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).hasSize(2);
        assertThat(p.framesOf(p.stacks().get(0))[0].name()).isEqualTo("[service-pool-worker-7 tid=13]");
        assertThat(p.stacks().get(0).samples()).as("the samples before and after the name was found").isEqualTo(3);
        assertThat(p.framesOf(p.stacks().get(1))[0].name()).as("a thread still unrecorded keeps its name")
                .isEqualTo("[rocksdb:low tid=14]");
        names.renameRoots(profile);
        assertThat(profile.snapshot(ProfileInfo.unknown()).stacks()).as("renamed once only").hasSize(2);
    }

    @Test
    void aRecordedThreadsRenameDoesNotRenameWhatWasCountedBefore() {
        ProfileAccumulator profile = new ProfileAccumulator();
        names.record(15, "before");
        profile.add(new Frame[] {names.frame(15)}, 1, 0);
        names.record(15, "after");
        profile.add(new Frame[] {names.frame(15)}, 1, 0);
        names.renameRoots(profile);
        Profile p = profile.snapshot(ProfileInfo.unknown());
        assertThat(p.stacks()).extracting(s -> p.framesOf(s)[0].name())
                .containsExactly("[before tid=15]", "[after tid=15]");
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
