package io.mixflame.unwind.pe;

import io.mixflame.process.MemoryReadException;

/** Reads the unwound thread's memory: its stack and, for epilog detection, the code at the pc. */
@FunctionalInterface
public interface UnwindMemory {
    /** The little-endian 64-bit value at an address (which need not be aligned). */
    long readLong(long address) throws MemoryReadException;
}
