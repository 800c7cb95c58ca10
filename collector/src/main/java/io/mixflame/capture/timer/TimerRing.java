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
    /** Slots of the region table, between the header and the records; slot 0 is never used. */
    static final int REGION_SLOTS = 8192;
    static final int REGION_BYTES = REGION_SLOTS * 16;
    /** Where the records begin. */
    static final int DATA_OFFSET = HEADER_BYTES + REGION_BYTES;
    private static final int REGION_SIZE_BITS = 16;
    private static final int HEAD = 0;
    private static final int TAIL = 64;
    private static final int LOST = 128;
    private static final int KEY = 136;
    private static final int CAPACITY = 144;
    private static final int FOREIGN = 152;
    private static final int SHORT_COPIES = 160;
    private static final int NUDGES_BLOCKED = 176;

    static final int RECORD_SAMPLE = 1;
    static final int RECORD_PADDING = 2;
    static final int RECORD_LENGTH = 8;
    static final int RECORD_TYPE = 12;
    static final int RECORD_TID = 16;
    static final int RECORD_STACK_LENGTH = 20;
    static final int RECORD_TIME = 24;
    static final int RECORD_OVERRUN = 32;
    static final int RECORD_HANDLER_NANOS = 36;
    static final int RECORD_SLOT = 40;
    static final int RECORD_IN_PLACE = 44;
    static final int RECORD_THREAD_POINTER = 48;
    static final int RECORD_REGISTERS = 56;
    static final int RECORD_STACK = 192;

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * An empty ring whose writers have gone past this far into it starts again at its beginning: while the reader
     * keeps up, the handlers write into the same few pages, already resident, and the rest of the ring is touched only
     * when samples wait. (A record written into a page not yet touched cost the sampled thread a page fault per
     * page, most of a sample's cost.)
     */
    static final long REWIND_BYTES = 1L << 20;

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
        if (Long.bitCount(capacity) != 1 || capacity + DATA_OFFSET > memory.capacity()) {
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
                int offset = DATA_OFFSET + (int) (tail & (capacity - 1));
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
        rewindIfEmpty(tail);
        return handed;
    }

    /**
     * Sends the writers back to the start of the ring when it is empty and they are past {@link #REWIND_BYTES}: the
     * reader reserves the rest of the lap as a writer would, with a compare-and-swap on the head (which fails, and
     * changes nothing, when a writer reserved meanwhile), and reads past it at once.
     */
    private void rewindIfEmpty(long tail) {
        long offset = tail & (capacity - 1);
        if (offset < REWIND_BYTES) {
            return;
        }
        long rest = capacity - offset;
        if (LONGS.compareAndSet(memory, HEAD, tail, tail + rest)) {
            LONGS.setRelease(memory, TAIL, tail + rest);
        }
    }

    /** The most pages a region can say: a larger stack is given as its top this many pages. */
    static final long MAX_REGION_PAGES = (1L << REGION_SIZE_BITS) - 1;

    /**
     * Publishes a thread's stack, {@code [high - pages * 4096, high)}, in region slot {@code slot}, for the handler to
     * copy that thread's stack with plain loads while its sp lies inside.
     */
    void setRegion(int slot, long high, long pages) {
        if (slot <= 0 || slot >= REGION_SLOTS || pages <= 0 || pages > MAX_REGION_PAGES || high <= 0
                || high >>> (64 - REGION_SIZE_BITS) != 0) {
            throw new IllegalArgumentException("no region for slot " + slot);
        }
        LONGS.setRelease(memory, HEADER_BYTES + 16 * slot, (high << REGION_SIZE_BITS) | pages);
    }

    /** Empties region slot {@code slot}: its stack and the CPU time accounted for its thread. */
    void clearRegion(int slot) {
        LONGS.setRelease(memory, HEADER_BYTES + 16 * slot, 0L);
        LONGS.setRelease(memory, HEADER_BYTES + 16 * slot + 8, 0L);
    }

    /** Nudges that found their thread blocked in a system call, which waited for the next. */
    long nudgesBlocked() {
        return (long) LONGS.getOpaque(memory, NUDGES_BLOCKED);
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
