package io.mixflame.image.dwarf;

import io.mixflame.process.MemoryReadException;

/**
 * What a DWARF expression reads while it is evaluated: the frame's registers (DWARF numbering) and the thread's
 * memory. The unwinder supplies them; the module's unwind data only describes the computation.
 */
public interface ExpressionInputs {
    /** Whether the frame's value of a register is known. */
    boolean isKnown(int register);

    /** The frame's value of a known register. */
    long register(int register);

    /** A 64-bit word of the thread's memory ({@code DW_OP_deref}). */
    long readLong(long address) throws MemoryReadException;
}
