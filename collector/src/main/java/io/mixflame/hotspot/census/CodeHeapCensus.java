package io.mixflame.hotspot.census;

import java.nio.ByteBuffer;

/**
 * A census of the JVM's code heaps: every block in use, read in one pass while the JIT goes on allocating and freeing,
 * with what tells a blob from the next one put in its place. The code cache's history is made of the differences
 * between censuses. One implementation per way of reading the JVM's memory.
 */
public interface CodeHeapCensus {
    /**
     * Words of {@code layout}: the offsets in a CodeHeap of its memory's low and high and its segment map's low, and
     * of its log2 segment size; sizeof(HeapBlock), HeapBlock::Header's _length and _used, CodeBlob's _size and _name,
     * nmethod's _method and _compile_id (-1 for a field the JVM does not describe); and the bytes of
     * HeapBlock::Header's _length (8, or 4 where it is a 32-bit count).
     */
    int LAYOUT_WORDS = 12;

    /**
     * Takes a census of the heaps (the CodeHeap structures' addresses, in the order of the memory they hold), whose
     * bounds it reads as it goes: the heaps grow.
     *
     * @return the number of blobs found, in address order; -1 when the walk of a heap was cut short (blocks split or
     *         merged under it, or more blobs than this census can hold)
     */
    int take(long[] heaps, int heapCount, long[] layout);

    /** Where blob {@code row} of the last census starts. */
    long start(int row);

    /** The first address after it. */
    long end(int row);

    /** Its HotSpot name's address (one string per kind of blob). */
    long name(int row);

    /** The word where a compiled method keeps its Method*. */
    long method(int row);

    /** The word where a compiled method keeps its compilation's id (0 where not described). */
    int compileId(int row);

    /**
     * A copy of blob {@code row}'s header taken with the census, little-endian, from position 0; null where the census
     * took none (it copies those of compiled blobs it finds new, where it can).
     */
    default ByteBuffer header(int row) {
        return null;
    }
}
