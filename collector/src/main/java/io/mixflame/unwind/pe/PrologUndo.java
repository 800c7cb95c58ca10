package io.mixflame.unwind.pe;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.pe.UnwindCode;
import io.mixflame.image.pe.UnwindInfo;
import io.mixflame.unwind.Registers;

/**
 * Undoes a function's prolog on a register set by applying its unwind codes in array order (the prolog's last
 * operation first), then those of the infos it is chained to. A code whose prolog offset lies beyond the pc's
 * offset in the function describes an instruction that had not run yet and is skipped.
 */
final class PrologUndo {
    private final Registers regs;
    private final StackReader stack;
    private int skippedXmmSaves;

    PrologUndo(Registers regs, StackReader stack) {
        this.regs = regs;
        this.stack = stack;
    }

    /**
     * Applies the codes of {@code info} and its chain.
     *
     * @param establisher the frame base that register saves are relative to (the primary function's, for every
     *                    info of the chain)
     * @return whether a machine frame was unwound (rip and rsp then come from it, not from a return address)
     */
    boolean undoAll(long imageBase, long controlPc, RuntimeFunction entry, UnwindInfo info, long establisher)
            throws StackReader.BadStackException {
        boolean machineFrame = false;
        RuntimeFunction function = entry;
        for (UnwindInfo current = info; current != null; current = current.chained()) {
            // As an unsigned 32-bit distance: a pc before a chained parent's start counts as past its prolog.
            long pcOffset = (controlPc - imageBase - function.begin()) & 0xffff_ffffL;
            for (UnwindCode code : current.codes()) {
                if (pcOffset >= code.codeOffset()) {
                    machineFrame |= apply(code, current, establisher);
                }
            }
            function = current.chainedEntry();
        }
        return machineFrame;
    }

    /** XMM saves that were applicable but not read. */
    int skippedXmmSaves() {
        return skippedXmmSaves;
    }

    private boolean apply(UnwindCode code, UnwindInfo info, long establisher) throws StackReader.BadStackException {
        switch (code.op()) {
            case UnwindCode.PUSH_NONVOL -> {
                restore(code.opInfo(), regs.sp());
                regs.set(X64Registers.RSP, regs.sp() + 8);
            }
            case UnwindCode.ALLOC_SMALL, UnwindCode.ALLOC_LARGE -> regs.set(X64Registers.RSP, regs.sp() + code.operand());
            case UnwindCode.SET_FPREG -> {
                int frame = WindowsRegisterNumbers.toDwarf(info.frameRegister());
                if (info.frameRegister() == 0 || !regs.isKnown(frame)) {
                    throw new StackReader.BadStackException("UWOP_SET_FPREG without a known frame register");
                }
                regs.set(X64Registers.RSP, regs.get(frame) - 16L * info.frameOffset());
            }
            case UnwindCode.SAVE_NONVOL, UnwindCode.SAVE_NONVOL_FAR ->
                    restore(code.opInfo(), establisher + code.operand());
            case UnwindCode.SAVE_XMM128, UnwindCode.SAVE_XMM128_FAR -> skippedXmmSaves++;
            case UnwindCode.PUSH_MACHFRAME -> {
                // The CPU pushed [error code,] rip, cs, rflags, rsp, ss.
                long frame = regs.sp() + (code.opInfo() != 0 ? 8 : 0);
                long rip = stack.read(frame, "machine frame rip");
                long rsp = stack.read(frame + 24, "machine frame rsp");
                regs.set(X64Registers.RIP, rip);
                regs.set(X64Registers.RSP, rsp);
                return true;
            }
            case UnwindCode.EPILOG, UnwindCode.SPARE -> {
                // Version 1 used these for 64-bit XMM saves; version 2's epilog descriptions change no register.
                if (info.version() == 1) {
                    skippedXmmSaves++;
                }
            }
            default -> {
                // The reader admits no other operation.
            }
        }
        return false;
    }

    private void restore(int windowsRegister, long address) throws StackReader.BadStackException {
        if (windowsRegister == WindowsRegisterNumbers.RSP) {
            throw new StackReader.BadStackException("unwind code restores rsp");
        }
        regs.set(WindowsRegisterNumbers.toDwarf(windowsRegister), stack.read(address, "saved register"));
    }
}
