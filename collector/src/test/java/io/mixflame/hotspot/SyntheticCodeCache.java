package io.mixflame.hotspot;

import io.mixflame.testsupport.FakeProcessMemory;
import java.util.ArrayList;
import java.util.List;

/**
 * A code cache laid out in a {@link FakeProcessMemory} as HotSpot lays one out: code heaps whose segment maps
 * count back to the start of each block, blocks with a used flag, and code blobs (nmethods and stubs) behind the
 * block headers. The offsets of every structure are this class's choice, published to the profiler through
 * {@link #describeTo}, as a JVM publishes its own through its tables.
 */
final class SyntheticCodeCache {
    static final int LOG2_SEGMENT = 7;
    static final int SEGMENT = 1 << LOG2_SEGMENT;
    static final int HEAP_BLOCK = 16;
    private static final int FREE = 0xff;
    /** The largest hop HotSpot stores in a segment map; longer distances take several hops. */
    private static final int MAX_HOP = 0xfe;

    // CodeBlob
    static final int NAME = 0;
    static final int SIZE = 8;
    static final int FRAME_SIZE = 12;
    static final int FRAME_COMPLETE = 16;
    static final int CODE_OFFSET = 20;
    static final int DATA_OFFSET = 24;
    static final int BLOB_HEADER = 64;
    // nmethod
    static final int METHOD = 32;
    static final int COMP_LEVEL = 40;
    static final int ORIG_PC = 44;
    static final int DEOPT = 48;
    static final int DEOPT_MH = 52;
    static final int SCOPES_PCS = 56;
    static final int DEPENDENCIES = 60;
    static final int METADATA = 64;
    static final int SCOPES_DATA = 72;
    static final int NMETHOD_HEADER = 96;
    // CodeHeap, with an embedded VirtualSpace for its memory and for its segment map
    private static final int HEAP_MEMORY = 8;
    private static final int HEAP_SEGMAP = 56;
    private static final int HEAP_LOG2 = 104;
    private static final int SPACE_LOW = 16;
    private static final int SPACE_HIGH = 24;
    private static final int CODE_HEAP_SIZE = 112;

    private final FakeProcessMemory memory;
    private long data;
    private final List<Heap> heaps = new ArrayList<>();
    private final long heapsVariable;
    private final long lowBoundVariable;
    private final long highBoundVariable;

    /** A code cache whose JVM-side structures (heap objects, names) go from {@code dataArea} upwards. */
    SyntheticCodeCache(FakeProcessMemory memory, long dataArea) {
        this.memory = memory;
        this.data = dataArea;
        this.heapsVariable = allocate(8);
        this.lowBoundVariable = allocate(8);
        this.highBoundVariable = allocate(8);
    }

    /** Publishes the layout: the names {@link HotSpotLayout} looks up for the code cache and code blobs. */
    void describeTo(SyntheticVmStructs vm) {
        vm.staticField("CodeCache", "_heaps", "GrowableArray<CodeHeap*>*", heapsVariable)
                .staticField("CodeCache", "_low_bound", "address", lowBoundVariable)
                .staticField("CodeCache", "_high_bound", "address", highBoundVariable)
                .field("GrowableArrayBase", "_len", "int", 0)
                .field("GrowableArray<int>", "_data", "int*", 8)
                .field("CodeHeap", "_memory", "VirtualSpace", HEAP_MEMORY)
                .field("CodeHeap", "_segmap", "VirtualSpace", HEAP_SEGMAP)
                .field("CodeHeap", "_log2_segment_size", "int", HEAP_LOG2)
                .field("VirtualSpace", "_low", "char*", SPACE_LOW)
                .field("VirtualSpace", "_high", "char*", SPACE_HIGH)
                .type("HeapBlock", HEAP_BLOCK)
                .field("HeapBlock::Header", "_used", "bool", 8)
                .type("CodeBlob", BLOB_HEADER)
                .type("nmethod", NMETHOD_HEADER)
                .field("CodeBlob", "_name", "const char*", NAME)
                .field("CodeBlob", "_size", "int", SIZE)
                .field("CodeBlob", "_frame_size", "int", FRAME_SIZE)
                .field("CodeBlob", "_frame_complete_offset", "int", FRAME_COMPLETE)
                .field("CodeBlob", "_code_offset", "int", CODE_OFFSET)
                .field("CodeBlob", "_data_offset", "int", DATA_OFFSET)
                .field("nmethod", "_method", "Method*", METHOD)
                .field("nmethod", "_comp_level", "int", COMP_LEVEL)
                .field("nmethod", "_orig_pc_offset", "int", ORIG_PC)
                .field("nmethod", "_deopt_handler_offset", "int", DEOPT)
                .field("nmethod", "_deopt_mh_handler_offset", "int", DEOPT_MH)
                .field("nmethod", "_scopes_pcs_offset", "int", SCOPES_PCS)
                .field("nmethod", "_dependencies_offset", "int", DEPENDENCIES)
                .field("nmethod", "_metadata_offset", "int", METADATA)
                .field("CompiledMethod", "_scopes_data_begin", "address", SCOPES_DATA);
    }

    /**
     * Adds a code heap of {@code reservedSegments} segments at {@code low}, of which the first
     * {@code committedSegments} are committed; the segment map marks them all free.
     */
    Heap addHeap(long low, int committedSegments, int reservedSegments) {
        long segmap = allocate(reservedSegments);
        Heap heap = new Heap(allocate(CODE_HEAP_SIZE), low, segmap, reservedSegments);
        memory.map(low, (long) reservedSegments * SEGMENT);
        for (int i = 0; i < reservedSegments; i++) {
            memory.writeByte(segmap + i, FREE);
        }
        memory.writeLong(heap.object + HEAP_MEMORY + SPACE_LOW, low);
        memory.writeLong(heap.object + HEAP_SEGMAP + SPACE_LOW, segmap);
        memory.writeInt(heap.object + HEAP_LOG2, LOG2_SEGMENT);
        heap.commit(committedSegments);
        heaps.add(heap);
        writeHeapArray();
        return heap;
    }

    /** A NUL-terminated string among the JVM's data, such as a blob's name. */
    long string(String s) {
        long at = allocate(s.length() + 1);
        memory.writeCString(at, s);
        return at;
    }

    private void writeHeapArray() {
        long data = allocate(8L * heaps.size());
        for (int i = 0; i < heaps.size(); i++) {
            memory.writeLong(data + 8L * i, heaps.get(i).object);
        }
        long array = allocate(16);
        memory.writeInt(array, heaps.size());
        memory.writeLong(array + 8, data);
        memory.writeLong(heapsVariable, array);
        long low = heaps.stream().mapToLong(h -> h.low).min().orElseThrow();
        long high = heaps.stream().mapToLong(h -> h.low + (long) h.reservedSegments * SEGMENT).max().orElseThrow();
        memory.writeLong(lowBoundVariable, low);
        memory.writeLong(highBoundVariable, high);
    }

    private long allocate(long bytes) {
        long at = data;
        memory.map(at, bytes);
        data = (at + bytes + 15) & ~15L;
        return at;
    }

    /** One code heap: blocks are allocated from its start, in order. */
    final class Heap {
        final long object;
        final long low;
        private final long segmap;
        private final int reservedSegments;
        private int nextSegment;

        private Heap(long object, long low, long segmap, int reservedSegments) {
            this.object = object;
            this.low = low;
            this.segmap = segmap;
            this.reservedSegments = reservedSegments;
        }

        /** Moves the committed end (the heap grows). */
        void commit(int segments) {
            memory.writeLong(object + HEAP_MEMORY + SPACE_HIGH, low + (long) segments * SEGMENT);
        }

        /** The next {@code segments} segments as a used block; returns the blob's address, after the block header. */
        long allocate(int segments) {
            long block = low + (long) nextSegment * SEGMENT;
            markBlock(nextSegment, segments);
            nextSegment += segments;
            return block + HEAP_BLOCK;
        }

        /** Frees the block of a blob; like HotSpot, the segment map keeps pointing at the block's start. */
        void free(long blob) {
            memory.writeByte(blob - HEAP_BLOCK + 8, 0);
        }

        /** Uses again a block freed before, for a new blob (written by the caller). */
        void reuse(long blob) {
            memory.writeByte(blob - HEAP_BLOCK + 8, 1);
        }

        /** Overwrites one byte of the segment map (to damage it). */
        void setSegmapByte(int segment, int value) {
            memory.writeByte(segmap + segment, value);
        }

        private void markBlock(int first, int segments) {
            long block = low + (long) first * SEGMENT;
            memory.writeLong(block, segments);
            memory.writeByte(block + 8, 1);
            for (int i = 0; i < segments; i++) {
                memory.writeByte(segmap + first + i, Math.min(i, MAX_HOP));
            }
        }
    }

    /** Writes an nmethod's header at {@code blob}: code at offset 0x80, deopt handlers near its end. */
    void writeNmethod(long blob, int size, long method, int compLevel) {
        writeBlob(blob, size, string("nmethod"));
        memory.writeLong(blob + METHOD, method);
        memory.writeInt(blob + COMP_LEVEL, compLevel);
        memory.writeInt(blob + ORIG_PC, 16);
        memory.writeInt(blob + DEOPT, size - 0x20);
        memory.writeInt(blob + DEOPT_MH, size - 0x10);
        memory.writeInt(blob + SCOPES_PCS, size - 0x40);
        memory.writeInt(blob + DEPENDENCIES, size - 0x30);
        memory.writeInt(blob + METADATA, size - 0x50);
        memory.writeLong(blob + SCOPES_DATA, blob + size - 0x60);
    }

    /** Writes a stub's header at {@code blob}. */
    void writeStub(long blob, int size, String name) {
        writeBlob(blob, size, string(name));
    }

    private void writeBlob(long blob, int size, long name) {
        memory.writeLong(blob + NAME, name);
        memory.writeInt(blob + SIZE, size);
        memory.writeInt(blob + FRAME_SIZE, 4);
        memory.writeInt(blob + FRAME_COMPLETE, 8);
        memory.writeInt(blob + CODE_OFFSET, 0x80);
        memory.writeInt(blob + DATA_OFFSET, size - 0x80);
    }
}
