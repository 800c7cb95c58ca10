package io.mixflame.unwind.pe;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.MemoryWords;
import io.mixflame.unwind.StackBounds;

/**
 * Reads 8-byte stack slots for one unwind step, refusing any slot outside the stack's limits (as
 * RtlVirtualUnwind2's LowLimit/HighLimit do), so that corrupted unwind data cannot make the step read elsewhere.
 */
final class StackReader {
    /** A slot could not be read, or lay outside the stack; carries the reason. */
    static final class BadStackException extends Exception {
        private static final long serialVersionUID = 1L;

        BadStackException(String message) {
            super(message, null, false, false);
        }
    }

    private final MemoryWords memory;
    private final StackBounds limits;

    StackReader(MemoryWords memory, StackBounds limits) {
        this.memory = memory;
        this.limits = limits;
    }

    long read(long address, String what) throws BadStackException {
        if (!limits.contains(address) || !limits.contains(address + 7) || address + 7 < address) {
            throw new BadStackException(what + " at 0x" + Long.toHexString(address) + " lies outside the stack");
        }
        try {
            return memory.readLong(address);
        } catch (MemoryReadException e) {
            throw new BadStackException("cannot read " + what + " at 0x" + Long.toHexString(address));
        }
    }
}
