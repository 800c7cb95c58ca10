package io.mixflame.capture.perf;

import com.sun.jna.Pointer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The ring buffer the kernel writes one thread's samples into: a metadata page, then a power-of-two data area.
 * The kernel advances {@code data_head}; the reader consumes records up to it and then publishes
 * {@code data_tail}, with the acquire and release ordering perf_event_open(2) prescribes. Records may wrap around
 * the end of the data area; they are copied into a reused buffer then.
 */
final class PerfRingBuffer {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final int DATA_HEAD = 1024;
    private static final int DATA_TAIL = 1032;
    private static final int DATA_OFFSET = 1040;
    private static final int DATA_SIZE = 1048;
    private static final int HEADER = 8;

    private final ByteBuffer meta;
    private final ByteBuffer data;
    private final long mask;
    /**
     * Where a record that wraps around the data area's end is joined: outside the Java heap (it grows to the largest
     * such sample, tens of kilobytes, for each thread's ring), made at the first.
     */
    private ByteBuffer wrapped;

    /** Receives each record: the buffer and the offset and length of the record's bytes (header included). */
    interface RecordVisitor {
        void record(int type, ByteBuffer buffer, int offset, int length);

        /**
         * Whether the visitor takes one more record: a drain stops before a record it does not, and leaves it and
         * those after it in the ring for the next (the kernel writes on until the ring is full, then counts what it
         * could not write as lost).
         */
        default boolean takesMore() {
            return true;
        }
    }

    /** A view of the mapping at {@code address} of {@code pageSize * (1 + dataPages)} bytes. */
    PerfRingBuffer(long address, int pageSize, int dataPages) {
        Pointer base = new Pointer(address);
        this.meta = base.getByteBuffer(0, pageSize).order(ByteOrder.nativeOrder());
        long offset = meta.getLong(DATA_OFFSET);
        long size = meta.getLong(DATA_SIZE);
        if (offset == 0 || size == 0) {
            offset = pageSize;
            size = (long) pageSize * dataPages;
        }
        this.data = base.getByteBuffer(offset, size).order(ByteOrder.nativeOrder());
        this.mask = size - 1;
    }

    /** For tests: a ring over given buffers. */
    PerfRingBuffer(ByteBuffer meta, ByteBuffer data) {
        this.meta = meta.order(ByteOrder.nativeOrder());
        this.data = data.order(ByteOrder.nativeOrder());
        this.mask = data.capacity() - 1;
    }

    /**
     * How long the event has been running: for a per-thread cpu-clock event, the thread's time on a CPU while
     * sampled. The kernel keeps it in the metadata page ({@code time_running}, at offset 32), so reading it costs no
     * system call; a value that has not changed means the thread has not run since.
     */
    long timeRunning() {
        return meta.getLong(32);
    }

    /**
     * Hands every complete record to the visitor and frees their space.
     *
     * @return the number of records read
     */
    int drain(RecordVisitor visitor) {
        long head = (long) LONGS.getAcquire(meta, DATA_HEAD);
        long tail = meta.getLong(DATA_TAIL);
        if (head == tail) {
            // Nothing new: no write to the kernel's page (a sampler polling hundreds of idle threads does this most).
            return 0;
        }
        int records = 0;
        long size = mask + 1;
        while (tail < head && visitor.takesMore()) {
            int at = (int) (tail & mask);
            int type;
            int length;
            if (at + HEADER <= size) {
                type = data.getInt(at);
                length = data.getShort(at + 6) & 0xffff;
            } else {
                copyWrapped(at, HEADER);
                type = wrapped.getInt(0);
                length = wrapped.getShort(6) & 0xffff;
            }
            if (length < HEADER || tail + length > head) {
                // A torn or corrupt record: skip everything written so far rather than loop on it.
                tail = head;
                break;
            }
            if (at + length <= size) {
                visitor.record(type, data, at, length);
            } else {
                copyWrapped(at, length);
                visitor.record(type, wrapped, 0, length);
            }
            tail += length;
            records++;
        }
        LONGS.setRelease(meta, DATA_TAIL, tail);
        return records;
    }

    private void copyWrapped(int at, int length) {
        if (wrapped == null || wrapped.capacity() < length) {
            int capacity = Math.max(length, wrapped == null ? 1024 : wrapped.capacity() * 2);
            wrapped = ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
        }
        int first = (int) Math.min(length, mask + 1 - at);
        wrapped.put(0, data, at, first);
        wrapped.put(first, data, 0, length - first);
    }
}
