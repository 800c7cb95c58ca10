package io.mixflame.unwind;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.process.MemoryReadException;

/**
 * A stand-in for an unwinder of generated code (as HotSpot's is for JIT code): it claims the pcs of one address
 * range, where every frame has the same size and leaves rbp alone, and describes each frame it unwinds as a
 * {@link WalkedStack#JVM_STUB} so that a test can tell which unwinder did each step.
 */
final class FixedFrameUnwinder implements Unwinder {
    private final long codeStart;
    private final long codeEnd;
    private final int frameBytes;

    /**
     * @param frameBytes bytes between a frame's sp and its return address; the caller's sp is 8 above that
     */
    FixedFrameUnwinder(long codeStart, long codeEnd, int frameBytes) {
        this.codeStart = codeStart;
        this.codeEnd = codeEnd;
        this.frameBytes = frameBytes;
    }

    @Override
    public boolean canUnwindFrom(UnwindContext context) {
        long pc = context.lookupPc();
        return pc >= codeStart && pc < codeEnd;
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext context) {
        Registers r = context.registers();
        context.describeFrame(WalkedStack.JVM_STUB, r.pc(), 0);
        try {
            long returnAddress = context.memory().readLong(r.sp() + frameBytes);
            r.set(X64Registers.RSP, r.sp() + frameBytes + 8);
            r.set(X64Registers.RIP, returnAddress);
            context.setSignalFrame(false);
            return UnwindStatus.UNWOUND;
        } catch (MemoryReadException e) {
            return UnwindStatus.FAILED;
        }
    }
}
