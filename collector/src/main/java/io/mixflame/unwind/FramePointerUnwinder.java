package io.mixflame.unwind;

import io.mixflame.capture.HostRegisters;
import io.mixflame.process.MemoryReadException;

/**
 * The fallback for code without unwind information: the standard frame-pointer chain, where the saved caller's
 * rbp is at {@code [rbp]} and the return address at {@code [rbp + 8]}. It claims every frame whose rbp is known;
 * the walker's checks stop it when the chain leads into garbage.
 */
public final class FramePointerUnwinder implements Unwinder {

    @Override
    public boolean canUnwindFrom(UnwindContext context) {
        return context.registers().isKnown(HostRegisters.FP);
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext context) {
        Registers r = context.registers();
        long fp = r.fp();
        if (fp == 0 || (fp & 7) != 0) {
            return UnwindStatus.FAILED;
        }
        try {
            long callerFp = context.memory().readLong(fp);
            long returnAddress = context.memory().readLong(fp + 8);
            r.set(HostRegisters.SP, fp + 16);
            r.set(HostRegisters.PC, returnAddress);
            r.set(HostRegisters.FP, callerFp);
            context.setSignalFrame(false);
            return returnAddress == 0 ? UnwindStatus.COMPLETED : UnwindStatus.UNWOUND;
        } catch (MemoryReadException e) {
            return UnwindStatus.FAILED;
        }
    }
}
