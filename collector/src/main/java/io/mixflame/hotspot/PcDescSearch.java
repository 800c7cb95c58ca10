package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;

/**
 * Which PcDesc of an nmethod describes a pc: the first whose pc offset is at or after the pc's. A return address
 * has a PcDesc of its own (HotSpot records one just after each call), so it matches exactly; a pc interrupted
 * anywhere else takes the next one in the code, which is the one HotSpot's own samplers use (an exact match first,
 * else the first PcDesc after the pc). A pc on a safepoint poll matches the poll's own PcDesc, not the next one:
 * the poll belongs to the loop that precedes it, the next PcDesc may be another inlined method's.
 */
final class PcDescSearch {
    /** The pc offsets of a PcDesc array, which HotSpot keeps sorted. */
    interface Offsets {
        /** The number of PcDescs. */
        long count();

        /** The pc offset of PcDesc {@code index}. */
        int offsetAt(long index) throws MemoryReadException;
    }

    private PcDescSearch() {
    }

    /** The index of the PcDesc for {@code pcOffset}, or -1 when the pc lies after the last one. */
    static long indexFor(Offsets offsets, int pcOffset) throws MemoryReadException {
        long lo = 0;
        long hi = offsets.count() - 1;
        long found = -1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            if (offsets.offsetAt(mid) < pcOffset) {
                lo = mid + 1;
            } else {
                found = mid;
                hi = mid - 1;
            }
        }
        return found;
    }
}
