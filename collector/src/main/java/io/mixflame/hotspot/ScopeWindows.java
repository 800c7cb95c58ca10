package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The scope records and the metadata (Method*) array of the nmethods sampled last, each held as one window of
 * {@value #WINDOW} bytes read at once: decoded from the JVM's memory, every pc not named before cost a read for its
 * record, one more for each method it was inlined into (their records lie before it) and one per Method*, round trips
 * through wineserver under Wine. Held in {@value #SLOTS} direct-mapped slots outside the Java heap, each for one
 * {@link CodeBlobInfo}, as {@link PcDescTable} holds their PcDescs: an nmethod's debug information does not change
 * while it lives, and a block freed and reused comes with another CodeBlobInfo.
 */
final class ScopeWindows {
    static final int SLOTS = 64;
    static final int WINDOW = 2048;
    /** How far before a record its window starts: the records of the methods it was inlined into come first. */
    static final int BEFORE = 1536;
    /** Bytes a record may take (three compressed integers), so that one near a window's end is read again. */
    private static final int RECORD = 16;
    static final int METHODS = 64;

    private final ProcessMemory memory;
    private final Object[] owners = new Object[SLOTS];
    private final int[] starts = new int[SLOTS];
    private final int[] lengths = new int[SLOTS];
    /** The windows, then the metadata arrays (a block of {@value #METHODS} words per slot), outside the Java heap. */
    private final ByteBuffer windows = ByteBuffer.allocateDirect(SLOTS * WINDOW);
    private final int[] methodCounts = new int[SLOTS];
    private final ByteBuffer methods = ByteBuffer.allocateDirect(SLOTS * METHODS * 8).order(ByteOrder.LITTLE_ENDIAN);

    ScopeWindows(ProcessMemory memory) {
        this.memory = memory;
    }

    /**
     * The scope data of {@code blob} from {@code offset} on (at least a record's worth where it is readable), as a
     * buffer whose position 0 is {@code offset}.
     *
     * @throws MemoryReadException when nothing can be read there
     */
    ByteBuffer at(CodeBlobInfo blob, int offset) throws MemoryReadException {
        int slot = slotFor(blob);
        int from = offset - starts[slot];
        boolean held = lengths[slot] > 0 && from >= 0
                && (from + RECORD <= lengths[slot] || lengths[slot] < WINDOW && from < lengths[slot]);
        if (!held) {
            read(slot, blob, offset);
            from = offset - starts[slot];
        }
        return windows.slice(slot * WINDOW + from, lengths[slot] - from);
    }

    /**
     * Entry {@code index} (from 0) of {@code blob}'s metadata array: the Method* a scope's method index names.
     *
     * @throws MemoryReadException when it cannot be read
     */
    long method(CodeBlobInfo blob, int index) throws MemoryReadException {
        int slot = slotFor(blob);
        if (methodCounts[slot] < 0) {
            int got = Math.max(0, memory.read(blob.metadata(), methods, slot * METHODS * 8, METHODS * 8));
            methodCounts[slot] = got / 8;
        }
        if (index >= 0 && index < methodCounts[slot]) {
            return methods.getLong((slot * METHODS + index) * 8);
        }
        return memory.readLong(blob.metadata() + 8L * index);
    }

    /** The slot of {@code blob}, emptied first when it held another nmethod. */
    private int slotFor(CodeBlobInfo blob) {
        long s = blob.start() >>> 5;
        int slot = (int) ((s ^ (s >>> 7)) & (SLOTS - 1));
        if (owners[slot] != blob) {
            owners[slot] = blob;
            lengths[slot] = 0;
            methodCounts[slot] = -1;
        }
        return slot;
    }

    private void read(int slot, CodeBlobInfo blob, int offset) throws MemoryReadException {
        int start = Math.max(0, offset - BEFORE);
        int got = memory.read(blob.scopesData() + start, windows, slot * WINDOW, WINDOW);
        if (got <= offset - start) {
            // What precedes the record may not be readable (the scope data's first page): the record alone then.
            start = offset;
            got = memory.read(blob.scopesData() + start, windows, slot * WINDOW, WINDOW);
        }
        if (got <= 0 || got <= offset - start) {
            lengths[slot] = 0;
            throw new MemoryReadException(blob.scopesData() + offset);
        }
        starts[slot] = start;
        lengths[slot] = got;
    }
}
