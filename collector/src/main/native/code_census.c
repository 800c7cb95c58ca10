/*
 * A census of the JVM's code heaps (Linux, the profiler's own process): every block in use, with what tells one code
 * blob from the next that takes its place (its start and end, its HotSpot name, and for compiled methods the Method*
 * and the compilation's id). The profiler takes one every few tens of milliseconds while samples wait to be walked,
 * and keeps the differences between censuses as the code cache's recent history, so that a sample walked seconds late
 * is named by the code that ran when it was taken, not by what the JIT put in its place since.
 *
 * Plain loads of the JVM's memory, no lock of the JVM's: the heaps' committed ranges stay mapped for the life of the
 * process, and every address read is checked against its heap's range first. The JIT allocates and frees blocks while
 * a census runs, so a block's header may be read half written: the walk from block to block trusts a length only when
 * the segment map marks the next block's first segment as a block's start, and stops the heap there otherwise; the
 * census then says it is incomplete, and the caller keeps what it knew rather than counting the missing blobs as gone.
 */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

/* The layout, in this order (offsets within the structure named; ~0 for a field this JVM does not have). */
enum {
    HEAP_LOW,       /* CodeHeap::_memory._low: the heap's first byte */
    HEAP_HIGH,      /* CodeHeap::_memory._high: the end of its committed part, which grows */
    HEAP_SEGMAP,    /* CodeHeap::_segmap._low: its segment map */
    HEAP_LOG2,      /* CodeHeap::_log2_segment_size, an int */
    BLOCK_HEADER,   /* sizeof(HeapBlock): the blob starts this far into its block */
    BLOCK_LENGTH,   /* HeapBlock::Header::_length, in segments */
    BLOCK_USED,     /* HeapBlock::Header::_used */
    BLOB_SIZE,      /* CodeBlob::_size, an int */
    BLOB_NAME,      /* CodeBlob::_name */
    BLOB_METHOD,    /* nmethod::_method */
    BLOB_COMPILE_ID, /* nmethod::_compile_id, an int */
    BLOCK_LENGTH_WIDTH, /* the bytes of HeapBlock::Header::_length: 8 (size_t), or 4 (a 32-bit count, newer JDKs) */
    LAYOUT_WORDS
};
/* What the census writes per blob: start, end, name, Method* word, compile id word. */
#define OUT_WORDS 5
#define FREE_SEGMENT 0xff
#define ABSENT (~(uint64_t) 0)

static uint64_t word(uint64_t address) {
    return *(const volatile uint64_t *) address;
}

/*
 * Writes one row per block in use into out (at most capacity rows), heap after heap in the order given (heaps are
 * CodeHeap addresses, whose bounds are read here, as the heaps grow), each heap's blocks in address order.
 *
 * Returns the rows written; -(rows needed) - 1 when out is too small (the rows up to capacity are written); and
 * sets *incomplete to the number of heaps whose walk stopped before their end.
 */
EXPORT int64_t mixflame_code_census(const uint64_t *heaps, int32_t heap_count, const uint64_t *layout, uint64_t *out,
                                    int64_t capacity, int32_t *incomplete) {
    int64_t rows = 0;
    int32_t stopped = 0;
    uint64_t header = layout[BLOCK_HEADER];
    /* Enough of a block to read every field asked for, past its start. */
    uint64_t reach = header + 8;
    for (int i = BLOB_SIZE; i <= BLOB_COMPILE_ID; i++) {
        if (layout[i] != ABSENT && header + layout[i] + 8 > reach) {
            reach = header + layout[i] + 8;
        }
    }
    for (int32_t h = 0; h < heap_count; h++) {
        uint64_t heap = heaps[h];
        uint64_t low = word(heap + layout[HEAP_LOW]);
        uint64_t high = word(heap + layout[HEAP_HIGH]);
        const volatile uint8_t *segmap = (const volatile uint8_t *) word(heap + layout[HEAP_SEGMAP]);
        int32_t log2 = *(const volatile int32_t *) (heap + layout[HEAP_LOG2]);
        if (log2 <= 0 || log2 >= 20 || high <= low || segmap == 0) {
            stopped++;
            continue;
        }
        uint64_t block = low;
        while (block + reach <= high) {
            uint8_t mark = segmap[(block - low) >> log2];
            if (mark == FREE_SEGMENT) {
                break; /* past the last block ever allocated: the heap's end */
            }
            if (mark != 0) {
                stopped++; /* not a block's start: a block was split or merged under the walk */
                break;
            }
            uint64_t length = layout[BLOCK_LENGTH_WIDTH] == 4
                    ? *(const volatile uint32_t *) (block + layout[BLOCK_LENGTH]) : word(block + layout[BLOCK_LENGTH]);
            uint64_t next = block + (length << log2);
            if (length == 0 || next <= block || next > high) {
                stopped++;
                break;
            }
            if (*(const volatile uint8_t *) (block + layout[BLOCK_USED]) != 0) {
                uint64_t start = block + header;
                int32_t size = *(const volatile int32_t *) (start + layout[BLOB_SIZE]);
                if (size > 0 && start + (uint64_t) size <= next) {
                    if (rows < capacity) {
                        uint64_t *row = out + rows * OUT_WORDS;
                        row[0] = start;
                        row[1] = start + (uint64_t) size;
                        row[2] = word(start + layout[BLOB_NAME]);
                        row[3] = layout[BLOB_METHOD] == ABSENT ? 0 : word(start + layout[BLOB_METHOD]);
                        row[4] = layout[BLOB_COMPILE_ID] == ABSENT ? 0
                                : (uint64_t) (uint32_t) *(const volatile int32_t *) (start + layout[BLOB_COMPILE_ID]);
                    }
                    rows++;
                }
            }
            block = next;
        }
    }
    *incomplete = stopped;
    return rows <= capacity ? rows : -rows - 1;
}
