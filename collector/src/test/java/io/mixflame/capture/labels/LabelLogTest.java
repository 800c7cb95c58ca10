package io.mixflame.capture.labels;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LabelLogTest {

    @Test
    void theSetInForceAtATimeIsTheLastChangeAtOrBeforeIt() {
        LabelLog log = new LabelLog(4);
        int slot = log.register(Thread.currentThread(), 42);
        LabelLog.record(log.page(slot), LabelLog.base(slot), 0, 1_000, 5, 0);
        LabelLog.record(log.page(slot), LabelLog.base(slot), 1, 2_000, 0, 0);
        LabelLog.record(log.page(slot), LabelLog.base(slot), 2, 3_000, 7, 0);

        assertThat(log.setAt(slot, 999)).isEqualTo(LabelSets.NONE);
        assertThat(log.setAt(slot, 1_000)).isEqualTo(5);
        assertThat(log.setAt(slot, 1_999)).isEqualTo(5);
        assertThat(log.setAt(slot, 2_500)).isEqualTo(LabelSets.NONE);
        assertThat(log.setAt(slot, 3_000)).isEqualTo(7);
        assertThat(log.setAt(slot, Long.MAX_VALUE)).isEqualTo(7);
        assertThat(log.tid(slot)).isEqualTo(42);
    }

    @Test
    void aTimeOlderThanTheRingHoldsIsUnknownNotAGuess() {
        LabelLog log = new LabelLog(1);
        int slot = log.register(Thread.currentThread(), 7);
        for (int i = 0; i < LabelLog.ENTRIES + 10; i++) {
            LabelLog.record(log.page(slot), LabelLog.base(slot), i, 1_000L * (i + 1), 2 + (i % 2), 0);
        }
        assertThat(log.setAt(slot, 500)).isEqualTo(LabelLog.UNKNOWN);
        assertThat(log.setAt(slot, 1_000L * 5)).isEqualTo(LabelLog.UNKNOWN);
        assertThat(log.setAt(slot, 1_000L * (LabelLog.ENTRIES + 10))).isEqualTo(2 + ((LabelLog.ENTRIES + 9) % 2));
        assertThat(log.setAt(slot, 1_000L * 20 + 1)).isEqualTo(2 + (19 % 2));
    }

    @Test
    void aSlotOfAThreadThatEndedGoesToTheNextThreadAndFullSlotsRefuse() throws Exception {
        LabelLog log = new LabelLog(2);
        Thread ended = new Thread(() -> { });
        ended.start();
        ended.join();
        int live = log.register(Thread.currentThread(), 2);
        int first = log.register(ended, 1);
        LabelLog.record(log.page(first), LabelLog.base(first), 0, 10, 5, 0);
        int again = log.register(Thread.currentThread(), 3);

        assertThat(again).isEqualTo(first).isNotEqualTo(live);
        assertThat(log.tid(first)).isEqualTo(3);
        assertThat(log.setAt(first, Long.MAX_VALUE)).as("a new owner starts empty").isEqualTo(LabelSets.NONE);
        assertThat(log.register(Thread.currentThread(), 4)).isEqualTo(-1);
        assertThat(log.refused()).isEqualTo(1);
    }

    @Test
    void aReaderNeverSeesASetTheThreadWasNotInAtThatTime() throws Exception {
        // The writer alternates sets 2 and 3 at times that encode them (even: 2, odd: 3) while a reader asks; the
        // reader must get the right one or UNKNOWN, never the other.
        LabelLog log = new LabelLog(1);
        int slot = log.register(Thread.currentThread(), 9);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
        Thread reader = new Thread(() -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(1);
            while (!done.get()) {
                long upTo = written.get();
                if (upTo < 2) {
                    continue;
                }
                long t = 10 * (1 + random.nextLong(upTo - 1)) + 5;
                int set = log.setAt(slot, t);
                int expected = ((t - 5) / 10) % 2 == 0 ? 2 : 3;
                if (set != LabelLog.UNKNOWN && set != expected) {
                    wrong.set("at " + t + ": " + set + " where " + expected);
                }
            }
        });
        reader.start();
        for (long i = 0; i < 3_000_000 && wrong.get() == null; i++) {
            long time = 10 * (i + 1);
            LabelLog.record(log.page(slot), LabelLog.base(slot), i, time, (i + 1) % 2 == 0 ? 2 : 3, 0);
            written.set(i);
        }
        done.set(true);
        reader.join();
        assertThat(wrong.get()).isNull();
    }

    @Test
    void aCarriersSlotIsNeverGivenToAnotherThreadAndOthersStillGetTheirs() {
        LabelLog log = new LabelLog(2);
        int carrier = log.registerCarrier(11);
        int live = log.register(Thread.currentThread(), 12);
        assertThat(live).isNotNegative().isNotEqualTo(carrier);
        assertThat(log.tid(carrier)).isEqualTo(11);
        assertThat(log.register(new Thread(() -> { }), 13)).as("every slot held: the carrier's for good").isEqualTo(-1);
        assertThat(log.refused()).isEqualTo(1);
    }

    @Test
    void theKernelThreadIdIsTheOneProcSays() {
        assertThat(io.mixflame.process.linux.GettidThreadId.bestAvailable().current())
                .isEqualTo(io.mixflame.process.linux.ProcThreadSelf.tid());
    }
}
