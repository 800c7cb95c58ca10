package io.mixflame.unwind.pe;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.process.MemoryWords;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.pe.UnwindCode;
import io.mixflame.image.pe.UnwindInfo;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.UnwindStatus;

/**
 * One x64 Windows unwind step with RtlVirtualUnwind's semantics: from the registers of a frame executing at a pc,
 * the registers of its caller. A pc in an epilog is handled by running the epilog's code forward; elsewhere the
 * unwind codes of the function (and of the infos it is chained to) are undone, skipping those whose prolog
 * instruction had not run yet; a function without unwind data is a leaf, unwound as a lone {@code ret}.
 *
 * <p>Like RtlVirtualUnwind2 given LowLimit/HighLimit, every stack slot read must lie inside the stack's limits and
 * the caller's rsp must too, 8-byte aligned and above the frame's own (so a walk of steps always ends); anything
 * else ends the step with {@link UnwindStatus#FAILED} and a reason. The step never throws and never loops: the
 * codes are finite and the chain was bounded when decoded. The registers passed in change only on success.
 */
public final class PeUnwindStep {
    private final MemoryWords memory;
    private final MemoryWords code;
    private final StackBounds limits;

    /**
     * @param memory reads the stack and the code at the pc
     * @param limits the stack's {@code [low, high)}: rsp and every slot read must lie inside
     */
    public PeUnwindStep(MemoryWords memory, StackBounds limits) {
        this(memory, memory, limits);
    }

    /**
     * @param memory reads the stack
     * @param code   reads the code at the pc (a cache of it: it is read at every frame)
     * @param limits the stack's {@code [low, high)}: rsp and every slot read must lie inside
     */
    public PeUnwindStep(MemoryWords memory, MemoryWords code, StackBounds limits) {
        this.memory = memory;
        this.code = code;
        this.limits = limits;
    }

    /**
     * Unwinds one frame.
     *
     * @param imageBase the module's load address
     * @param entry     the RUNTIME_FUNCTION holding the pc, {@code null} for a leaf function
     * @param info      {@code entry}'s decoded unwind info (with its chain), {@code null} for a leaf function
     * @param regs      in: the frame's registers, rsp known and rip the control pc; out: the caller's, on success
     * @param returnAddress whether rip is a return address (the frame called out), so that {@code entry} was
     *                  found at rip - 1 and rip may lie one past its end
     */
    public PeUnwindResult unwind(long imageBase, RuntimeFunction entry, UnwindInfo info, Registers regs,
            boolean returnAddress) {
        if (!regs.isKnown(X64Registers.RSP) || !regs.isKnown(X64Registers.RIP)) {
            return PeUnwindResult.failed("rsp or rip unknown");
        }
        long oldSp = regs.sp();
        if (!limits.contains(oldSp)) {
            return PeUnwindResult.failed("rsp 0x" + Long.toHexString(oldSp) + " outside the stack");
        }
        Registers next = new Registers();
        next.copyFrom(regs);
        StackReader stack = new StackReader(memory, limits);
        PrologUndo undo = new PrologUndo(next, stack);
        long establisher;
        try {
            if (info == null || entry == null) {
                establisher = oldSp;
                returnTo(next, stack);
            } else {
                long pcRva = regs.pc() - imageBase;
                // A call that ends its function (to one that never returns) returns to the first byte after it:
                // the whole prolog has run there, and the code at that pc is another function's, never an epilog.
                boolean pastEnd = returnAddress && pcRva == entry.end();
                if (!entry.contains(pcRva) && !pastEnd) {
                    return PeUnwindResult.failed("pc 0x" + Long.toHexString(regs.pc()) + " outside its function");
                }
                long pcOffset = pcRva - entry.begin();
                establisher = establisherFrame(info, pcOffset, regs);
                CodeBytes bytes = pastEnd ? null : CodeBytes.read(code, regs.pc());
                if (bytes != null && EpilogEmulator.epilogLength(bytes, info, entry, pcRva) >= 0) {
                    EpilogEmulator.emulate(bytes, info, next, stack);
                } else {
                    boolean machineFrame = undo.undoAll(imageBase, regs.pc(), entry, info, establisher);
                    if (!machineFrame) {
                        returnTo(next, stack);
                    }
                }
            }
        } catch (StackReader.BadStackException e) {
            return PeUnwindResult.failed(e.getMessage());
        }
        // A zero return address ends the stack (the thread's first frame) wherever the caller's rsp would be:
        // the topmost slot may be the stack's last, leaving rsp at the high limit.
        if (next.pc() != 0) {
            String bad = checkCallerSp(next.sp(), oldSp);
            if (bad != null) {
                return PeUnwindResult.failed(bad);
            }
        }
        regs.copyFrom(next);
        UnwindStatus status = next.pc() == 0 ? UnwindStatus.COMPLETED : UnwindStatus.UNWOUND;
        return new PeUnwindResult(status, null, establisher, undo.skippedXmmSaves());
    }

    /**
     * The establisher frame: rsp, or once the prolog has set the frame register (the whole body, and any pc of a
     * chained fragment), the frame register minus its offset.
     */
    private static long establisherFrame(UnwindInfo info, long pcOffset, Registers regs)
            throws StackReader.BadStackException {
        if (info.frameRegister() == 0) {
            return regs.sp();
        }
        boolean frameSet = pcOffset >= info.prologSize() || info.isChained();
        for (int i = 0; !frameSet && i < info.codes().size(); i++) {
            UnwindCode c = info.codes().get(i);
            frameSet = c.op() == UnwindCode.SET_FPREG && pcOffset >= c.codeOffset();
        }
        if (!frameSet) {
            return regs.sp();
        }
        int frame = WindowsRegisterNumbers.toDwarf(info.frameRegister());
        if (!regs.isKnown(frame)) {
            throw new StackReader.BadStackException("frame register unknown");
        }
        return regs.get(frame) - 16L * info.frameOffset();
    }

    /** Pops the return address, as a {@code ret} does. */
    private static void returnTo(Registers regs, StackReader stack) throws StackReader.BadStackException {
        regs.set(X64Registers.RIP, stack.read(regs.sp(), "return address"));
        regs.set(X64Registers.RSP, regs.sp() + 8);
    }

    private String checkCallerSp(long sp, long oldSp) {
        if (!limits.contains(sp)) {
            return "caller's rsp 0x" + Long.toHexString(sp) + " outside the stack";
        }
        if ((sp & 7) != 0) {
            return "caller's rsp 0x" + Long.toHexString(sp) + " misaligned";
        }
        // Callers' frames lie above their callees', machine frames included (an exception is dispatched on the
        // stack below the interrupted frame), so demanding progress costs nothing and stops any walk looping.
        if (Long.compareUnsigned(sp, oldSp) <= 0) {
            return "caller's rsp 0x" + Long.toHexString(sp) + " not above the frame's";
        }
        return null;
    }
}
