package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import org.junit.jupiter.api.Test;

/** A thread's root frame keeps its thread's name and id for the outputs that have fields for them. */
class ThreadFrameFieldsTest {
    @Test
    void aThreadFrameMadeByTheProfilerKeepsItsNameAndId() {
        Frame f = Frame.thread("pool-1 tid=3 worker", 42);
        assertThat(f.name()).isEqualTo("[pool-1 tid=3 worker tid=42]");
        assertThat(f.threadName()).isEqualTo("pool-1 tid=3 worker");
        assertThat(f.threadId()).isEqualTo(42);
        assertThat(f.module()).as("no module: outputs take modules for native code").isNull();
    }

    @Test
    void aThreadFrameReadBackHasTheSameFieldsAndEqualsTheOneMade() {
        Frame read = CollapsedFrames.parseAtRoot("[main tid=7]", true);
        assertThat(read.type()).isEqualTo(FrameType.THREAD);
        assertThat(read.threadName()).isEqualTo("main");
        assertThat(read.threadId()).isEqualTo(7);
        assertThat(read).isEqualTo(Frame.thread("main", 7));
        assertThat(CollapsedFrames.threadFrame("[tid=9]").threadName()).as("no name").isEmpty();
        assertThat(CollapsedFrames.threadFrame("[tid=9]").threadId()).isEqualTo(9);
    }

    @Test
    void framesWithoutAThreadIdHaveNoThreadFields() {
        Frame named = CollapsedFrames.threadFrame("[main]");
        assertThat(named.threadName()).isNull();
        assertThat(named.threadId()).isZero();
        Frame method = new Frame("java/lang/Thread.run", FrameType.INTERPRETED);
        assertThat(method.threadName()).isNull();
        assertThat(method.threadId()).isZero();
    }
}
