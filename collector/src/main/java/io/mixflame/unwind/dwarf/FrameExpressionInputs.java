package io.mixflame.unwind.dwarf;

import io.mixflame.image.dwarf.ExpressionInputs;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackMemory;

/**
 * A frame's registers and its thread's stack as a DWARF expression reads them. One instance per unwinder, pointed at
 * the frame before each evaluation, so that evaluating allocates nothing.
 */
public final class FrameExpressionInputs implements ExpressionInputs {
    private Registers registers;
    private StackMemory memory;

    /** Points at a frame; returns this. */
    public FrameExpressionInputs of(Registers registers, StackMemory memory) {
        this.registers = registers;
        this.memory = memory;
        return this;
    }

    @Override
    public boolean isKnown(int register) {
        return registers.isKnown(register);
    }

    @Override
    public long register(int register) {
        return registers.get(register);
    }

    @Override
    public long readLong(long address) throws MemoryReadException {
        return memory.readLong(address);
    }
}
