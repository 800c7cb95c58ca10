package io.mixflame.capture.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reading end of the handlers' ring, over records laid out here as {@code thread_timer.c} lays them: records are
 * read in order once published, a reserved record not yet published stops the reader there, padding is skipped, a
 * reader without room leaves records in place, and an empty ring whose writers went past a megabyte sends them back
 * to its start.
 */
class TimerRingTest {
    private static final long CAPACITY = 4L << 20;
    private static final long KEY = 0x5DEECE66DL;
    private final ByteBuffer memory = ByteBuffer.allocateDirect((int) (TimerRing.DATA_OFFSET + CAPACITY))
            .order(ByteOrder.LITTLE_ENDIAN);

    TimerRingTest() {
        memory.putLong(144, CAPACITY);
        memory.putLong(136, KEY);
    }

    @Test
    void publishedRecordsAreReadInOrderAndAnUnpublishedOneStopsTheReader() {
        TimerRing ring = new TimerRing(memory);
        write(1, 1000, true);
        write(2, 2000, false); // reserved, its handler not done
        write(3, 3000, true);
        List<Integer> tids = new ArrayList<>();
        assertThat(ring.drain(record(tids))).isEqualTo(1);
        assertThat(tids).containsExactly(1);
        publish(0);
        assertThat(ring.drain(record(tids))).isEqualTo(2);
        assertThat(tids).containsExactly(1, 2, 3);
        assertThat(memory.getLong(64)).as("tail").isEqualTo(memory.getLong(0));
    }

    @Test
    void aReaderWithoutRoomLeavesTheRecordsForTheNextDrain() {
        TimerRing ring = new TimerRing(memory);
        write(1, 500, true);
        write(2, 500, true);
        List<Integer> tids = new ArrayList<>();
        assertThat(ring.drain((m, offset) -> false)).isZero();
        assertThat(memory.getLong(64)).as("tail").isZero();
        assertThat(ring.drain(record(tids))).isEqualTo(2);
        assertThat(tids).containsExactly(1, 2);
    }

    @Test
    void paddingIsSkippedAndAnEmptyRingPastAMegabyteStartsAgainAtItsBeginning() {
        TimerRing ring = new TimerRing(memory);
        long padding = TimerRing.REWIND_BYTES + 4096;
        writeRecord(TimerRing.RECORD_PADDING, 0, padding, true);
        write(7, 1000, true);
        List<Integer> tids = new ArrayList<>();
        assertThat(ring.drain(record(tids))).isEqualTo(1);
        assertThat(tids).containsExactly(7);
        long head = memory.getLong(0);
        assertThat(head).as("the writers sent back to the start of the next lap").isEqualTo(CAPACITY);
        assertThat(memory.getLong(64)).as("tail").isEqualTo(CAPACITY);
        // Writers go on from there, at offset 0 of the ring.
        write(8, 1000, true);
        assertThat(ring.drain(record(tids))).isEqualTo(1);
        assertThat(tids).containsExactly(7, 8);
    }

    @Test
    void aRingThatIsNotEmptyIsNotRewoundAndACorruptRecordIsRefused() {
        TimerRing ring = new TimerRing(memory);
        writeRecord(TimerRing.RECORD_PADDING, 0, TimerRing.REWIND_BYTES + 4096, true);
        write(1, 1000, false);
        ring.drain(record(new ArrayList<>()));
        assertThat(memory.getLong(0) % CAPACITY).as("head within the lap").isNotZero();
        publish(0);
        ring.drain(record(new ArrayList<>()));
        long at = memory.getLong(0);
        memory.putLong(0, at + 48);
        int offset = TimerRing.DATA_OFFSET + (int) (at & (CAPACITY - 1));
        memory.putInt(offset + TimerRing.RECORD_LENGTH, 40);
        memory.putLong(offset, at ^ KEY);
        assertThatThrownBy(() -> ring.drain(record(new ArrayList<>()))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt record of 40 bytes");
    }

    private TimerRing.RecordVisitor record(List<Integer> tids) {
        return (m, offset) -> {
            tids.add(m.getInt(offset + TimerRing.RECORD_TID));
            return true;
        };
    }

    private final List<long[]> unpublished = new ArrayList<>();

    /** Writes a sample record of thread {@code tid} with {@code stack} bytes, published or only reserved. */
    private void write(int tid, int stack, boolean published) {
        long length = (TimerRing.RECORD_STACK + stack + 15) & ~15L;
        long at = writeRecord(TimerRing.RECORD_SAMPLE, tid, length, published);
        memory.putInt(TimerRing.DATA_OFFSET + (int) (at & (CAPACITY - 1)) + TimerRing.RECORD_STACK_LENGTH, stack);
    }

    private long writeRecord(int type, int tid, long length, boolean published) {
        long at = memory.getLong(0);
        int offset = TimerRing.DATA_OFFSET + (int) (at & (CAPACITY - 1));
        memory.putInt(offset + TimerRing.RECORD_LENGTH, (int) length);
        memory.putInt(offset + TimerRing.RECORD_TYPE, type);
        memory.putInt(offset + TimerRing.RECORD_TID, tid);
        memory.putLong(offset, published ? at ^ KEY : 0);
        if (!published) {
            unpublished.add(new long[] {at, offset});
        }
        memory.putLong(0, at + length);
        return at;
    }

    private void publish(int index) {
        long[] r = unpublished.get(index);
        memory.putLong((int) r[1], r[0] ^ KEY);
    }
}
