package io.mixflame.image.dwarf;

import io.mixflame.process.MemoryWords;

/**
 * What a DWARF expression reads while it is evaluated: the frame's registers (DWARF numbering) and the thread's
 * memory ({@code DW_OP_deref} reads a word of it). The unwinder supplies them; the module's unwind data only describes the computation.
 */
public interface ExpressionInputs extends MemoryWords {
    /** Whether the frame's value of a register is known. */
    boolean isKnown(int register);

    /** The frame's value of a known register. */
    long register(int register);
}
