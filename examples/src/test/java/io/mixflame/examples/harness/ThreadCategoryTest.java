package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Root frames as async-profiler 4.6's {@code threads} option writes them. */
class ThreadCategoryTest {
    @TempDir
    Path dir;

    @Test
    void jvmThreadsByTheirOsNamesCutTo15Characters() {
        assertThat(ThreadCategory.ofRootFrame("[C2 CompilerThre tid=29413]")).isEqualTo(ThreadCategory.JIT_COMPILER);
        assertThat(ThreadCategory.ofRootFrame("[C1 CompilerThre tid=29414]")).isEqualTo(ThreadCategory.JIT_COMPILER);
        assertThat(ThreadCategory.ofRootFrame("[GC Thread#1 tid=29420]")).isEqualTo(ThreadCategory.GC);
        assertThat(ThreadCategory.ofRootFrame("[G1 Conc#0 tid=29403]")).isEqualTo(ThreadCategory.GC);
        assertThat(ThreadCategory.ofRootFrame("[VM Thread tid=29407]")).isEqualTo(ThreadCategory.OTHER);
    }

    @Test
    void mixflameThreadsApartFromTheWorkloadsAndMain() {
        assertThat(ThreadCategory.ofRootFrame("[mixflame-perf-walker tid=1]")).isEqualTo(ThreadCategory.MIXFLAME_WALKER);
        assertThat(ThreadCategory.ofRootFrame("[mixflame-perf-sampler tid=2]"))
                .isEqualTo(ThreadCategory.MIXFLAME_SAMPLER);
        assertThat(ThreadCategory.ofRootFrame("[mixflame-exit tid=3]")).isEqualTo(ThreadCategory.MIXFLAME_OTHER);
        assertThat(ThreadCategory.ofRootFrame("[saturate-0 tid=4]")).isEqualTo(ThreadCategory.WORKLOAD);
        assertThat(ThreadCategory.ofRootFrame("[DestroyJavaVM tid=5]")).isEqualTo(ThreadCategory.MAIN);
        assertThat(ThreadCategory.ofRootFrame("[main tid=5]")).isEqualTo(ThreadCategory.MAIN);
    }

    @Test
    void unnamedThreadsAndOtherFramesAreOther() {
        assertThat(ThreadCategory.ofRootFrame("[tid=29424]")).isEqualTo(ThreadCategory.OTHER);
        assertThat(ThreadCategory.ofRootFrame("start_thread")).isEqualTo(ThreadCategory.OTHER);
        assertThat(ThreadCategory.ofRootFrame("[saturate-0]")).as("no tid: not a thread frame")
                .isEqualTo(ThreadCategory.OTHER);
    }

    @Test
    void samplesAddUpPerCategoryOverStacksAndThreads() throws Exception {
        Path file = dir.resolve("threads.collapsed");
        Files.writeString(file, """
                [saturate-0 tid=10];java/lang/Thread.run;io/mixflame/examples/saturate/SaturationRound.run 30
                [saturate-1 tid=11];java/lang/Thread.run;crc32_z 12
                [C2 CompilerThre tid=7];clone3;start_thread;C2Compiler::compile_method 5
                [mixflame-perf-walker tid=20];io/mixflame/engine/perf/PerfEngine.walk 4
                [mixflame-perf-sampler tid=21];io/mixflame/engine/perf/PerfEngine.sample 2
                [mixflame-perf-sampler tid=21];read 1
                [tid=22];clone3 3
                """);
        Map<ThreadCategory, Long> samples = ThreadCategory.samplesOf(CollapsedProfile.read(file));
        assertThat(samples).containsEntry(ThreadCategory.WORKLOAD, 42L)
                .containsEntry(ThreadCategory.JIT_COMPILER, 5L)
                .containsEntry(ThreadCategory.MIXFLAME_WALKER, 4L)
                .containsEntry(ThreadCategory.MIXFLAME_SAMPLER, 3L)
                .containsEntry(ThreadCategory.OTHER, 3L)
                .containsEntry(ThreadCategory.GC, 0L)
                .containsOnlyKeys(ThreadCategory.values());
    }
}
