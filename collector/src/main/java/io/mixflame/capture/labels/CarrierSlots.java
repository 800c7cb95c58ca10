package io.mixflame.capture.labels;

import java.nio.ByteBuffer;

/**
 * The label log's slots of the carriers of virtual threads, by kernel thread id: looked up at every change a virtual
 * thread makes and at its every mount, without a lock or an allocation once the carrier has its slot. Open addressing
 * over {@value #CAPACITY} entries, more than any carrier pool has threads; a carrier past that gets none.
 */
final class CarrierSlots {
    static final int CAPACITY = 1024;

    private final long[] tids = new long[CAPACITY];
    private final Slot[] slots = new Slot[CAPACITY];

    /** One carrier's slot, and how many changes were written to it (by whichever virtual thread was mounted). */
    static final class Slot {
        final ByteBuffer page;
        final int base;
        long count;

        Slot(ByteBuffer page, int base) {
            this.page = page;
            this.base = base;
        }
    }

    /** The slot of carrier {@code tid}, registered in {@code log} at its first use; null when none can be had. */
    Slot of(long tid, LabelLog log) {
        int mask = CAPACITY - 1;
        int at = Long.hashCode(tid * 0x9E3779B97F4A7C15L) & mask;
        for (int probe = 0; probe < CAPACITY; probe++) {
            Slot s = slots[at];
            if (s == null) {
                return add(tid, log);
            }
            java.lang.invoke.VarHandle.acquireFence();
            if (tids[at] == tid) {
                return s;
            }
            at = (at + 1) & mask;
        }
        return null;
    }

    private synchronized Slot add(long tid, LabelLog log) {
        int mask = CAPACITY - 1;
        int at = Long.hashCode(tid * 0x9E3779B97F4A7C15L) & mask;
        for (int probe = 0; probe < CAPACITY; probe++) {
            if (slots[at] == null) {
                int slot = log.registerCarrier(tid);
                if (slot < 0) {
                    return null;
                }
                Slot s = new Slot(log.page(slot), LabelLog.base(slot));
                tids[at] = tid;
                // Published after its tid: a reader that sees the slot sees its tid.
                java.lang.invoke.VarHandle.releaseFence();
                slots[at] = s;
                return s;
            }
            if (tids[at] == tid) {
                return slots[at];
            }
            at = (at + 1) & mask;
        }
        return null;
    }
}
