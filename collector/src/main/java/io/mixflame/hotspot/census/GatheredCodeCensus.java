package io.mixflame.hotspot.census;

import io.mixflame.process.ProcessMemory;
import java.util.Arrays;

/**
 * A census of another JVM's code heaps read through {@link ProcessMemory}, for a profiler outside the JVM
 * ({@code record --pid}), whose walks wait in rings as the agent's do. A walk from block to block would be a read per
 * block, one after another; this one reads each heap's segment map (a byte a segment, a few hundred KiB for a code
 * cache of tens of MiB), finds every block's start in it (a segment marked 0), and then reads the blocks' headers
 * and the blobs' fields in gathered reads: a few dozen system calls for thousands of blobs.
 *
 * <p>The JIT allocates and frees blocks while the census reads: a block whose length does not reach the next start
 * the map marks, or the heap's end, was split or merged meanwhile, and the census is then cut short (-1), as the
 * in-process census is. Bounded: {@value #MAX_ROWS} blobs, a map of {@value #MAX_SEGMENTS} segments a heap. Not
 * thread-safe: the walking thread's, as the reader it is given.
 */
public final class GatheredCodeCensus implements CodeHeapCensus {
    /** The blobs a census may list, as the in-process census. */
    static final int MAX_ROWS = 1 << 17;
    /** A heap's segments read at most: 512 MiB of code in segments of 64 bytes. */
    static final int MAX_SEGMENTS = 8 << 20;
    private static final int FREE_SEGMENT = 0xff;
    private static final int HEAP_LOW = 0;
    private static final int HEAP_HIGH = 1;
    private static final int HEAP_SEGMAP = 2;
    private static final int HEAP_LOG2 = 3;
    private static final int BLOCK_HEADER = 4;
    private static final int BLOCK_LENGTH = 5;
    private static final int BLOCK_LENGTH_WIDTH = 11;
    private static final int BLOCK_USED = 6;
    private static final int BLOB_SIZE = 7;
    private static final int BLOB_NAME = 8;
    private static final int BLOB_METHOD = 9;
    private static final int BLOB_COMPILE_ID = 10;

    private final ProcessMemory memory;
    private byte[] segmap = new byte[0];
    private long[] starts = new long[0];
    private long[] ends = new long[0];
    private long[] names = new long[0];
    private long[] methods = new long[0];
    private int[] compileIds = new int[0];
    private int rows;

    /** A census of the JVM whose memory {@code memory} reads. */
    public GatheredCodeCensus(ProcessMemory memory) {
        this.memory = memory;
    }

    @Override
    public int take(long[] heaps, int heapCount, long[] layout) {
        rows = 0;
        long[] heapFields = new long[4];
        long[] words = new long[4];
        boolean[] read = new boolean[4];
        for (int h = 0; h < heapCount; h++) {
            for (int f = 0; f < 4; f++) {
                heapFields[f] = heaps[h] + layout[HEAP_LOW + f];
            }
            memory.readWords(heapFields, 4, words, read);
            if (!read[0] || !read[1] || !read[2] || !read[3]) {
                return -1;
            }
            int log2 = (int) words[HEAP_LOG2];
            if (!heap(words[HEAP_LOW], words[HEAP_HIGH], words[HEAP_SEGMAP], log2, layout)) {
                return -1;
            }
        }
        return rows;
    }

    /** Adds the blobs of one heap; false when its census was cut short. */
    private boolean heap(long low, long high, long segmapLow, int log2, long[] layout) {
        if (log2 <= 0 || log2 >= 20 || high <= low || segmapLow == 0) {
            return false;
        }
        long segments = (high - low) >> log2;
        if (segments > MAX_SEGMENTS) {
            return false;
        }
        int count = (int) segments;
        if (segmap.length < count) {
            segmap = new byte[count];
        }
        if (!memory.readFully(segmapLow, segmap, 0, count)) {
            return false;
        }
        // Every block's start, up to the first segment never allocated: the end of the heap's blocks.
        int blocks = 0;
        long end = high;
        for (int s = 0; s < count; s++) {
            int mark = segmap[s] & 0xff;
            if (mark == FREE_SEGMENT) {
                end = low + ((long) s << log2);
                break;
            }
            blocks += mark == 0 ? 1 : 0;
        }
        if (rows + (long) blocks > MAX_ROWS) {
            return false;
        }
        long[] blockAt = new long[blocks];
        for (int s = 0, b = 0; b < blocks; s++) {
            if (segmap[s] == 0) {
                blockAt[b++] = low + ((long) s << log2);
            }
        }
        long[] lengths = gathered(blockAt, blocks, layout[BLOCK_LENGTH]);
        long[] used = gathered(blockAt, blocks, layout[BLOCK_USED]);
        if (lengths == null || used == null) {
            return false;
        }
        long header = layout[BLOCK_HEADER];
        long[] blobs = new long[blocks];
        long[] blobLimits = new long[blocks];
        int inUse = 0;
        long lengthMask = layout[BLOCK_LENGTH_WIDTH] == 4 ? 0xffff_ffffL : -1L;
        for (int i = 0; i < blocks; i++) {
            long length = lengths[i] & lengthMask;
            long next = blockAt[i] + (length << log2);
            long expected = i + 1 < blocks ? blockAt[i + 1] : end;
            if (length <= 0 || next != expected) {
                return false; // a block split or merged under the census
            }
            if ((used[i] & 0xff) != 0) {
                blobLimits[inUse] = next;
                blobs[inUse++] = blockAt[i] + header;
            }
        }
        long[] sizes = gathered(blobs, inUse, layout[BLOB_SIZE]);
        long[] blobNames = gathered(blobs, inUse, layout[BLOB_NAME]);
        long[] blobMethods = layout[BLOB_METHOD] < 0 ? new long[inUse] : gathered(blobs, inUse, layout[BLOB_METHOD]);
        long[] ids = layout[BLOB_COMPILE_ID] < 0 ? new long[inUse]
                : gathered(blobs, inUse, layout[BLOB_COMPILE_ID]);
        if (sizes == null || blobNames == null || blobMethods == null || ids == null) {
            return false;
        }
        ensure(rows + inUse);
        for (int i = 0; i < inUse; i++) {
            int size = (int) sizes[i];
            if (size <= 0 || blobs[i] + size > blobLimits[i]) {
                continue;
            }
            starts[rows] = blobs[i];
            ends[rows] = blobs[i] + size;
            names[rows] = blobNames[i];
            methods[rows] = blobMethods[i];
            compileIds[rows] = (int) ids[i];
            rows++;
        }
        return true;
    }

    /** The words at {@code offset} past each of {@code bases[0, count)}, or null when one could not be read. */
    private long[] gathered(long[] bases, int count, long offset) {
        long[] addresses = new long[count];
        for (int i = 0; i < count; i++) {
            addresses[i] = bases[i] + offset;
        }
        long[] words = new long[count];
        boolean[] read = new boolean[count];
        memory.readWords(addresses, count, words, read);
        for (int i = 0; i < count; i++) {
            if (!read[i]) {
                return null;
            }
        }
        return words;
    }

    private void ensure(int capacity) {
        if (starts.length >= capacity) {
            return;
        }
        int n = Math.max(capacity, starts.length * 2);
        starts = Arrays.copyOf(starts, n);
        ends = Arrays.copyOf(ends, n);
        names = Arrays.copyOf(names, n);
        methods = Arrays.copyOf(methods, n);
        compileIds = Arrays.copyOf(compileIds, n);
    }

    @Override
    public long start(int row) {
        return starts[row];
    }

    @Override
    public long end(int row) {
        return ends[row];
    }

    @Override
    public long name(int row) {
        return names[row];
    }

    @Override
    public long method(int row) {
        return methods[row];
    }

    @Override
    public int compileId(int row) {
        return compileIds[row];
    }
}
