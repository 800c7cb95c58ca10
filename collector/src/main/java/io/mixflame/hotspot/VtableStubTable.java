package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * Tells vtable stubs from itable stubs: HotSpot keeps both in code blobs named "vtable chunks", and lists every
 * stub in a hash table of {@value #SLOTS} chains ({@code VtableStubs::_table}, found through libjvm's symbol table).
 * Each stub is a small header (link, index, exception offsets, kind) directly followed by its code; none of it is
 * described by the JVM's tables, so the offsets here are HotSpot's since JDK 9, checked by requiring every stub
 * found to lie in a "vtable chunks" blob and its kind byte to be 0 or 1.
 */
final class VtableStubTable {
    /** The table's length, {@code VtableStubs::N}. */
    static final int SLOTS = 256;
    /** The header's size: the code begins right after it. */
    static final int HEADER_BYTES = 16;
    /** The kind byte: 1 for a vtable stub, 0 for an itable stub. */
    static final int KIND_OFFSET = 14;
    /** A pc whose stub is not known. */
    static final int UNKNOWN = -1;
    static final int ITABLE = 0;
    static final int VTABLE = 1;
    static final String BLOB_NAME = "vtable chunks";

    private static final int MAX_STUBS = 100_000;

    static final VtableStubTable EMPTY = new VtableStubTable(new long[0], new long[0], new byte[0]);

    private final long[] codeBegins;
    private final long[] codeEnds;
    private final byte[] kinds;

    private VtableStubTable(long[] codeBegins, long[] codeEnds, byte[] kinds) {
        this.codeBegins = codeBegins;
        this.codeEnds = codeEnds;
        this.kinds = kinds;
    }

    /** Number of stubs known. */
    int size() {
        return codeBegins.length;
    }

    /** {@link #VTABLE}, {@link #ITABLE} or {@link #UNKNOWN} for a pc. */
    int kindAt(long pc) {
        int i = indexOf(pc);
        return i < 0 ? UNKNOWN : kinds[i];
    }

    /** The first instruction of the stub holding {@code pc}, or 0. */
    long codeBeginAt(long pc) {
        int i = indexOf(pc);
        return i < 0 ? 0 : codeBegins[i];
    }

    private int indexOf(long pc) {
        return StubRanges.indexOf(codeBegins, codeEnds, pc);
    }

    /**
     * Reads the table at {@code table}. A stub's code ends where the next stub's header starts, or for the last one
     * of a blob after the longest stride seen between stubs (they are allocated one after the other, of two sizes).
     *
     * @param blobs the code blob of an address, or null
     */
    static VtableStubTable read(VmReader reader, long table, LongFunction<CodeBlobInfo> blobs) {
        long[] headers = new long[64];
        byte[] kindOf = new byte[64];
        long[] blobEnds = new long[64];
        int count = 0;
        try {
            for (int slot = 0; slot < SLOTS; slot++) {
                long stub = reader.readLong(table + 8L * slot);
                for (int n = 0; stub != 0 && count < MAX_STUBS && n < MAX_STUBS; n++) {
                    CodeBlobInfo blob = blobs.apply(stub);
                    int kind = blob == null ? -1 : reader.u8(stub + KIND_OFFSET);
                    if (blob == null || !BLOB_NAME.equals(blob.name()) || kind > VTABLE) {
                        break;
                    }
                    if (count == headers.length) {
                        headers = Arrays.copyOf(headers, count * 2);
                        kindOf = Arrays.copyOf(kindOf, count * 2);
                        blobEnds = Arrays.copyOf(blobEnds, count * 2);
                    }
                    headers[count] = stub;
                    kindOf[count] = (byte) kind;
                    blobEnds[count] = blob.end();
                    count++;
                    stub = reader.readLong(stub);
                }
            }
        } catch (MemoryReadException e) {
            return EMPTY;
        }
        return of(Arrays.copyOf(headers, count), Arrays.copyOf(kindOf, count), Arrays.copyOf(blobEnds, count));
    }

    private static VtableStubTable of(long[] headers, byte[] kindOf, long[] blobEnds) {
        int count = headers.length;
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(headers[a], headers[b]));
        long maxStride = 0;
        for (int k = 1; k < count; k++) {
            long h = headers[order[k]];
            long previous = headers[order[k - 1]];
            if (blobEnds[order[k]] == blobEnds[order[k - 1]]) {
                maxStride = Math.max(maxStride, h - previous);
            }
        }
        long[] begins = new long[count];
        long[] ends = new long[count];
        byte[] kinds = new byte[count];
        for (int k = 0; k < count; k++) {
            int i = order[k];
            begins[k] = headers[i] + HEADER_BYTES;
            long end = blobEnds[i];
            if (k + 1 < count && blobEnds[order[k + 1]] == end) {
                end = headers[order[k + 1]];
            } else if (maxStride > 0) {
                end = Math.min(end, headers[i] + maxStride);
            }
            ends[k] = end;
            kinds[k] = kindOf[i];
        }
        return new VtableStubTable(begins, ends, kinds);
    }
}
