package io.mixflame.unwind.pe;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.pe.UnwindInfo;
import io.mixflame.unwind.Registers;

/**
 * Recognises a pc inside an x64 epilog by decoding the code there, and runs the rest of the epilog forward, as
 * RtlVirtualUnwind does: unwind codes describe only the prolog, so in an epilog some of what they would undo is
 * already undone. The forms recognised are Microsoft's documented epilog shapes: an optional
 * {@code add rsp, imm8/imm32} or {@code lea rsp, [frame register + disp8/disp32]}, any number of
 * {@code pop reg}, then {@code ret}, {@code ret imm16}, {@code rep ret}, a {@code jmp rel8/rel32} leaving the
 * function (a tail call), {@code jmp [rip+disp32]} or {@code REX.W jmp r/m}.
 */
final class EpilogEmulator {
    private static final int REX_W = 0x48;
    private static final int MODRM_RSP_DISP8 = 0x60; // mod 01, reg 100 (rsp)
    private static final int MODRM_RSP_DISP32 = 0xa0; // mod 10, reg 100 (rsp)

    private EpilogEmulator() {
    }

    /** Where the epilog's stack adjustment and pops end, or -1 if the code at the pc is no epilog. */
    static int epilogLength(CodeBytes code, UnwindInfo info, RuntimeFunction entry, long pcRva) {
        int at = adjustmentLength(code, info);
        while (true) {
            int pop = popLength(code, at);
            if (pop == 0) {
                break;
            }
            at += pop;
        }
        return endsFunction(code, at, info, entry, pcRva) ? at : -1;
    }

    /**
     * Runs the epilog forward on {@code regs}: the stack adjustment, the pops, then a return (a tail-call jmp is
     * treated as one too, since the jumped-to function returns to our caller).
     */
    static void emulate(CodeBytes code, UnwindInfo info, Registers regs, StackReader stack)
            throws StackReader.BadStackException {
        int at = adjustmentLength(code, info);
        if (at != 0) {
            // Every recognised form keeps its displacement at byte 3, 8 bits wide in the 4-byte forms.
            long displacement = at == 4 ? code.s8(3) : code.s32(3);
            if (code.u8(1) == 0x8d) {
                int frame = WindowsRegisterNumbers.toDwarf(info.frameRegister());
                if (!regs.isKnown(frame)) {
                    throw new StackReader.BadStackException("frame register unknown in an epilog's lea");
                }
                regs.set(X64Registers.RSP, regs.get(frame) + displacement);
            } else {
                regs.set(X64Registers.RSP, regs.sp() + displacement);
            }
        }
        while (true) {
            int length = popLength(code, at);
            if (length == 0) {
                break;
            }
            int opcode = code.u8(at + length - 1);
            int register = (length == 2 ? (code.u8(at) & 1) << 3 : 0) | (opcode & 7);
            if (register == WindowsRegisterNumbers.RSP) {
                throw new StackReader.BadStackException("epilog pops rsp");
            }
            regs.set(WindowsRegisterNumbers.toDwarf(register), stack.read(regs.sp(), "popped register"));
            regs.set(X64Registers.RSP, regs.sp() + 8);
            at += length;
        }
        regs.set(X64Registers.RIP, stack.read(regs.sp(), "return address"));
        regs.set(X64Registers.RSP, regs.sp() + 8);
    }

    private static int adjustmentLength(CodeBytes code, UnwindInfo info) {
        if (code.has(0, 4) && code.u8(0) == REX_W && code.u8(1) == 0x83 && code.u8(2) == 0xc4) {
            return 4;
        }
        if (code.has(0, 7) && code.u8(0) == REX_W && code.u8(1) == 0x81 && code.u8(2) == 0xc4) {
            return 7;
        }
        if (leaFrameRegister(code, info) != 0) {
            return (code.u8(2) & 0xf8) == MODRM_RSP_DISP8 ? 4 : 7;
        }
        return 0;
    }

    /**
     * The function's frame register if the code starts with {@code lea rsp, [frame register + disp]} (only
     * the frame register may rebuild rsp in an epilog), else 0.
     */
    private static int leaFrameRegister(CodeBytes code, UnwindInfo info) {
        if (!code.has(0, 4) || (code.u8(0) & 0xfe) != REX_W || code.u8(1) != 0x8d) {
            return 0;
        }
        int modrm = code.u8(2);
        int mode = modrm & 0xf8;
        if (mode != MODRM_RSP_DISP8 && !(mode == MODRM_RSP_DISP32 && code.has(0, 7))) {
            return 0;
        }
        int base = (code.u8(0) & 1) << 3 | (modrm & 7);
        return base != 0 && base == info.frameRegister() ? base : 0;
    }

    /** The length of a {@code pop reg} at an index (1, or 2 with a REX prefix), 0 if there is none. */
    private static int popLength(CodeBytes code, int at) {
        if (code.has(at, 1) && (code.u8(at) & 0xf8) == 0x58) {
            return 1;
        }
        if (code.has(at, 2) && (code.u8(at) & 0xf0) == 0x40 && (code.u8(at + 1) & 0xf8) == 0x58) {
            return 2;
        }
        return 0;
    }

    private static boolean endsFunction(CodeBytes code, int at, UnwindInfo info, RuntimeFunction entry,
            long pcRva) {
        if (code.has(at, 1) && (code.u8(at) == 0xc3 || code.u8(at) == 0xc2)) {
            return true;
        }
        if (code.has(at, 2) && code.u8(at) == 0xf3 && code.u8(at + 1) == 0xc3) {
            return true;
        }
        if (code.has(at, 2) && (code.u8(at) == 0xeb || code.u8(at) == 0xe9 && code.has(at, 5))) {
            boolean near = code.u8(at) == 0xeb;
            long target = pcRva + at + (near ? 2 + code.s8(at + 1) : 5 + code.s32(at + 1));
            // A jump out of the function, or back to its start (recursion), is a tail call.
            return !entry.contains(target) || target == entry.begin() && !info.isChained();
        }
        if (code.has(at, 2) && code.u8(at) == 0xff && code.u8(at + 1) == 0x25) {
            return true;
        }
        // REX.W is redundant on an indirect jmp; compilers add it to mark a tail call.
        return code.has(at, 3) && (code.u8(at) & 0xf8) == REX_W && code.u8(at + 1) == 0xff
                && (code.u8(at + 2) & 0x38) == 0x20;
    }
}
