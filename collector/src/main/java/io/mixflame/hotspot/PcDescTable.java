package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The PcDesc arrays of the nmethods sampled last, each read whole in one read and searched here: searched in the
 * JVM's memory, a pc never named before (the innermost frame's pc varies from sample to sample) cost a read per step
 * of the binary search, a dozen round trips through wineserver under Wine. Held in {@value #SLOTS} direct-mapped
 * slots, each for one {@link CodeBlobInfo}: the code cache index hands out a new one when it finds
 * a block freed and reused, so a slot never answers for another nmethod than the one it was read from. An
 * nmethod's PcDescs do not change while it lives.
 */
final class PcDescTable {
    static final int SLOTS = 64;
    /** At most one read's worth: larger arrays are searched in place. */
    static final int MAX_BYTES = 64 * 1024;
    /** What {@link #scopeOffset} answers for an nmethod whose PcDescs are not held. */
    static final int NOT_HELD = Integer.MIN_VALUE;

    private final ProcessMemory memory;
    private final int descSize;
    private final int pcField;
    private final int scopeField;
    private final Object[] owners = new Object[SLOTS];
    private final int[][] pcOffsets = new int[SLOTS][];
    private final int[][] scopeOffsets = new int[SLOTS][];
    private final int[] counts = new int[SLOTS];
    /** Where an array is read to before it is split: outside the Java heap, 64 KiB that would otherwise sit there. */
    private final ByteBuffer raw = ByteBuffer.allocateDirect(MAX_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    /** The slot {@link #search} looks at: one view, reused, rather than one made per search. */
    private final SlotOffsets search = new SlotOffsets();

    /**
     * @param memory     the JVM's memory
     * @param descSize   {@code sizeof(PcDesc)}
     * @param pcField    the offset of its {@code _pc_offset}
     * @param scopeField the offset of its {@code _scope_decode_offset}
     */
    PcDescTable(ProcessMemory memory, int descSize, int pcField, int scopeField) {
        this.memory = memory;
        this.descSize = descSize;
        this.pcField = pcField;
        this.scopeField = scopeField;
    }

    /**
     * The scope decode offset of the PcDesc {@link PcDescSearch} picks for {@code pcOffset} in {@code blob}, 0 when
     * none does, or {@link #NOT_HELD} when its PcDescs could not be read whole (too many, or unreadable).
     */
    int scopeOffset(CodeBlobInfo blob, int pcOffset) {
        int slot = slotOf(blob);
        if (owners[slot] != blob && !load(slot, blob)) {
            return NOT_HELD;
        }
        search.slot = slot;
        try {
            long found = PcDescSearch.indexFor(search, pcOffset);
            return found < 0 ? 0 : scopeOffsets[slot][(int) found];
        } catch (MemoryReadException e) {
            throw new IllegalStateException("held offsets are never read", e);
        }
    }

    private static int slotOf(CodeBlobInfo blob) {
        long s = blob.start() >>> 5;
        return (int) ((s ^ (s >>> 7)) & (SLOTS - 1));
    }

    private boolean load(int slot, CodeBlobInfo blob) {
        long bytes = blob.pcsEnd() - blob.pcsBegin();
        if (descSize <= 0 || bytes <= 0 || bytes > MAX_BYTES || bytes % descSize != 0
                || memory.read(blob.pcsBegin(), raw, 0, (int) bytes) != bytes) {
            return false;
        }
        int n = (int) (bytes / descSize);
        if (pcOffsets[slot] == null || pcOffsets[slot].length < n) {
            pcOffsets[slot] = new int[n];
            scopeOffsets[slot] = new int[n];
        }
        for (int i = 0; i < n; i++) {
            pcOffsets[slot][i] = intAt(i * descSize + pcField);
            scopeOffsets[slot][i] = intAt(i * descSize + scopeField);
        }
        counts[slot] = n;
        owners[slot] = blob;
        return true;
    }

    private int intAt(int at) {
        return raw.getInt(at);
    }

    /** The pc offsets of one held slot, as {@link PcDescSearch} reads them. */
    private final class SlotOffsets implements PcDescSearch.Offsets {
        int slot;

        @Override
        public long count() {
            return counts[slot];
        }

        @Override
        public int offsetAt(long index) {
            return pcOffsets[slot][(int) index];
        }
    }
}
