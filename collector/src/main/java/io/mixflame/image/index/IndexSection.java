package io.mixflame.image.index;

import java.nio.ByteBuffer;

/**
 * One section of a module index as it is written: a kind, and entries of a fixed size that it puts into a buffer a
 * chunk at a time, so that writing a large table needs no copy of it on the Java heap.
 */
public interface IndexSection {
    /** Which section this is; readers find sections by kind. */
    int kind();

    /** Number of entries. */
    int entries();

    /** Bytes of one entry (a multiple of 8 keeps the next section aligned; {@link ModuleIndexStore} pads anyway). */
    int entryBytes();

    /** Puts entries {@code first} to {@code first + count - 1} into {@code out} (little-endian) at its position. */
    void put(int first, int count, ByteBuffer out);
}
