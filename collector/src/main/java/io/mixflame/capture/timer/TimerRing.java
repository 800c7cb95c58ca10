package io.mixflame.capture.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The reading end of the ring the signal handlers write ({@code thread_timer.c}): a header, then records laid one after
 * another, never split at the end (a padding record fills the rest). Many handlers reserve records at once, each with a
 * compare-and-swap on the head; a record is readable once its commit word equals its position xor the ring's key, so
 * a record reserved but not yet written (its handler interrupted, or its thread descheduled) stops the reader there
 * until it is. One reader: the sampler thread.
 */
final class TimerRing {
    static final int HEADER_BYTES = 256;
    private static final int HEAD = 0;
    private static final int TAIL = 64;
    private static final int LOST = 128;
    private static final int KEY = 136;
    private static final int CAPACITY = 144;
    private static final int FOREIGN = 152;
    private static final int SHORT_COPIES = 160;

    static final int RECORD_SAMPLE = 1;
    static final int RECORD_PADDING = 2;
    static final int RECORD_LENGTH = 8;
    static final int RECORD_TYPE = 12;
    static final int RECORD_TID = 16;
    static final int RECORD_STACK_LENGTH = 20;
    static final int RECORD_TIME = 24;
    static final int RECORD_OVERRUN = 32;
    static final int RECORD_HANDLER_NANOS = 36;
    static final int RECORD_REGISTERS = 40;
    static final int RECORD_STACK = 176;

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ByteBuffer memory;
    private final long capacity;
    private final long key;

    /** Receives each published record; {@code offset} is where it starts in {@link #memory()}. */
    interface RecordVisitor {
        /** @return false to leave this record and those after it in the ring for the next drain */
        boolean record(ByteBuffer memory, int offset);
    }

    /** @param memory the whole mapping, header included */
    TimerRing(ByteBuffer memory) {
        this.memory = memory.order(ByteOrder.LITTLE_ENDIAN);
        this.capacity = memory.getLong(CAPACITY);
        this.key = memory.getLong(KEY);
        if (Long.bitCount(capacity) != 1 || capacity + HEADER_BYTES > memory.capacity()) {
            throw new IllegalArgumentException("not a ring: capacity " + capacity);
        }
    }

    /**
     * Hands every published record, in order, to {@code visitor}, and frees their room.
     *
     * @return records handed over
     */
    int drain(RecordVisitor visitor) {
        long tail = (long) LONGS.getAcquire(memory, TAIL);
        long head = (long) LONGS.getAcquire(memory, HEAD);
        int handed = 0;
        try {
            while (tail < head) {
                int offset = HEADER_BYTES + (int) (tail & (capacity - 1));
                long commit = (long) LONGS.getAcquire(memory, offset);
                if (commit != (tail ^ key)) {
                    break; // reserved, not yet written
                }
                int length = memory.getInt(offset + RECORD_LENGTH);
                if (length <= 0 || (length & 15) != 0 || length > capacity) {
                    throw new IllegalStateException("a corrupt record of " + length + " bytes at " + tail);
                }
                if (memory.getInt(offset + RECORD_TYPE) == RECORD_SAMPLE) {
                    if (!visitor.record(memory, offset)) {
                        break;
                    }
                    handed++;
                }
                tail += length;
            }
        } finally {
            LONGS.setRelease(memory, TAIL, tail);
        }
        return handed;
    }

    /** Samples the handlers found no room for. */
    long lost() {
        return (long) LONGS.getOpaque(memory, LOST);
    }

    /** Signals of the same number that were not the sampler's, passed to the handler before it. */
    long foreign() {
        return (long) LONGS.getOpaque(memory, FOREIGN);
    }

    /** Samples whose stack could not be read at all. */
    long shortCopies() {
        return (long) LONGS.getOpaque(memory, SHORT_COPIES);
    }

    /** Data bytes. */
    long capacity() {
        return capacity;
    }
}
