package io.mixflame.engine.wall;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.perf.SampleCapture.SwitchListener;
import io.mixflame.engine.SampleEmitter;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.ProcThreadSelf;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ledger follows a thread's states in the order its records were written, though the rings they come from were
 * read at different times: records past the time up to which every ring was read wait for the next drain.
 */
class SwitchLedgerTest {
    private static final long MS = 1_000_000L;

    private WallThread thread;
    private SwitchLedger ledger;
    private final SwitchEvents events = new SwitchEvents(4);

    @BeforeEach
    void follow() {
        int tid = ProcThreadSelf.tid();
        WallThreads threads = new WallThreads(OwnPid.get());
        // An emitter with nothing behind it: following states adds no sample.
        threads.refresh(new int[] {tid}, -1, new SampleEmitter(null, null, false, MS, null, null), null, null);
        thread = threads.get(tid);
        assertThat(thread).as("the thread followed").isNotNull();
        // Not counting: the states are only followed, which touches nothing but the thread.
        ledger = new SwitchLedger(threads, null, null, null, EnumSet.allOf(ThreadState.class), null, MS, 0);
    }

    @Test
    void aSleepReadAfterTheWakeThatEndedItIsFollowedInItsPlace() {
        int tid = thread.tid;
        // It ran on CPU 0 from 5 ms, slept there at 25 and woke on CPU 1 at 60. The first drain read CPU 0's ring
        // when it held only the start (the relay's pass began at 20, and was preempted before it moved CPU 1's, at
        // 70, with the wake); the second brought the sleep.
        events.add(tid, SwitchListener.IN, 5 * MS);
        events.add(tid, SwitchListener.IN, 60 * MS);
        ledger.apply(events, 20 * MS);
        assertThat(events.size()).as("the wake, past what every ring was read up to, kept").isEqualTo(1);
        events.add(tid, SwitchListener.OUT_BLOCKED, 25 * MS);
        ledger.apply(events, 80 * MS);

        assertThat(events.size()).isZero();
        assertThat(thread.state).isEqualTo(SwitchLedger.RUNNING);
        assertThat(thread.since).isEqualTo(60 * MS);
        assertThat(thread.trackedRun).as("running from 5 to 25 ms").isEqualTo(20);
        assertThat(thread.trackedBlocked).as("asleep from 25 to 60 ms").isEqualTo(35);
    }

    @Test
    void aBufferFullOfRecordsPastTheReadTimeIsAppliedRatherThanStalled() {
        int tid = thread.tid;
        for (int i = 1; i <= 4; i++) {
            events.add(tid, i % 2 == 1 ? SwitchListener.IN : SwitchListener.OUT_BLOCKED, i * 10 * MS);
        }
        ledger.apply(events, 5 * MS);
        assertThat(events.size()).isZero();
        assertThat(thread.state).isEqualTo(SwitchLedger.BLOCKED);
        assertThat(thread.trackedRun).isEqualTo(20);
        assertThat(thread.trackedBlocked).isEqualTo(10);
    }
}
