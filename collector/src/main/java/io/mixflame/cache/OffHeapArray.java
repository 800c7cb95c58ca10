package io.mixflame.cache;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;

/**
 * A growable array of fixed-size primitive elements outside the Java heap, for the profiler's large tables (symbol
 * addresses, names): the application's collector neither copies nor counts them, and G1 does not size the heap for
 * them. Elements are {@code long}s, {@code int}s or bytes as the caller reads them, at {@code index * elementBytes}.
 * Growing copies into a buffer twice as large; the old one is freed with its small heap object. Not thread-safe
 * while it grows. An array may also be a read-only view of bytes mapped from a file ({@link #readOnly}), which many
 * processes then share in the page cache.
 */
public final class OffHeapArray {
    private final int elementBytes;
    private ByteBuffer bytes;

    /**
     * @param elementBytes 8 for longs, 4 for ints, 1 for bytes
     * @param capacity     elements at first (at least one)
     */
    public OffHeapArray(int elementBytes, int capacity) {
        this.elementBytes = elementBytes;
        this.bytes = allocate(Math.max(1, capacity));
    }

    private OffHeapArray(int elementBytes, ByteBuffer bytes) {
        this.elementBytes = elementBytes;
        this.bytes = bytes;
    }

    /**
     * A view of {@code bytes} (from its position to its limit) without copying, in the buffer's own byte order: a
     * file's rows are read where they are mapped. Setters and {@link #ensure} past its capacity throw
     * {@link java.nio.ReadOnlyBufferException}.
     *
     * @param elementBytes 8 for longs, 4 for ints, 1 for bytes
     */
    public static OffHeapArray readOnly(ByteBuffer bytes, int elementBytes) {
        ByteOrder order = bytes.order();
        return new OffHeapArray(elementBytes, bytes.slice().asReadOnlyBuffer().order(order));
    }

    private ByteBuffer allocate(int capacity) {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, elementBytes)).order(ByteOrder.nativeOrder());
    }

    /** How many elements it holds. */
    public int capacity() {
        return bytes.capacity() / elementBytes;
    }

    public long getLong(int index) {
        return bytes.getLong(index << 3);
    }

    public void setLong(int index, long value) {
        bytes.putLong(index << 3, value);
    }

    public int getInt(int index) {
        return bytes.getInt(index << 2);
    }

    public void setInt(int index, int value) {
        bytes.putInt(index << 2, value);
    }

    public byte getByte(int index) {
        return bytes.get(index);
    }

    /** Copies {@code length} bytes of {@code source} from {@code offset} to byte {@code index}. */
    public void setBytes(int index, byte[] source, int offset, int length) {
        bytes.put(index, source, offset, length);
    }

    /** Copies {@code length} bytes from byte {@code index} on to {@code out}, at its position. */
    public void copyBytes(int index, int length, ByteBuffer out) {
        out.put(out.position(), bytes, index, length);
        out.position(out.position() + length);
    }

    /** Makes room for at least {@code capacity} elements, keeping those held; at least doubles. */
    public void ensure(int capacity) {
        if (capacity <= capacity()) {
            return;
        }
        if (bytes.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        ByteBuffer grown = allocate(Math.max(capacity, capacity() * 2));
        grown.put(0, bytes, 0, bytes.capacity());
        bytes = grown;
    }
}
