package io.mixflame.engine.wall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.capture.perf.RefusingPerfSyscalls;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingSettings;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * Where perf events are refused, a wall engine told that it needs the running threads' stacks refuses to start (so
 * that the next engine, which walks them another way, is tried) and says why; one not told starts without them.
 */
class WallEngineRefusalTest {
    private static final SamplingSettings WALL = new SamplingSettings(ProfilingEvent.WALL, 10_000_000L, true);

    @Test
    void needingRunningStacksItRefusesToStartAndSaysWhy() {
        RefusingPerfSyscalls refusing = new RefusingPerfSyscalls(13);
        WallEngine engine = new WallEngine(ProcessHandle.current().pid(), refusing,
                EnumSet.allOf(ThreadState.class)).needingRunningStacks();
        assertThatThrownBy(() -> engine.start(WALL, (f, d, s, w) -> { }))
                .isInstanceOf(EngineUnavailableException.class).hasMessageContaining("EACCES");
        assertThat(refusing.opens()).isEqualTo(1);
    }

    /** The probe is a real sampling event: a kernel that permits perf events accepts it (EINVAL would refuse all). */
    @Test
    void needingRunningStacksItStartsWherePerfEventsArePermitted() throws Exception {
        WallEngine engine = new WallEngine(ProcessHandle.current().pid(),
                new io.mixflame.capture.perf.LinuxPerfSyscalls(), EnumSet.allOf(ThreadState.class))
                .needingRunningStacks();
        org.assertj.core.api.Assertions.assertThatCode(() -> engine.start(WALL, (f, d, s, w) -> { }))
                .as("the probe of a kernel that permits perf events").doesNotThrowAnyException();
        engine.stop();
    }

    @Test
    void otherwiseItStartsAndSamplesTheRunningThreadsUnwalked() throws Exception {
        WallEngine engine = new WallEngine(ProcessHandle.current().pid(), new RefusingPerfSyscalls(13),
                EnumSet.allOf(ThreadState.class));
        engine.start(WALL, (f, d, s, w) -> { });
        engine.stop();
        assertThat(engine.name()).isEqualTo("perf");
    }
}
