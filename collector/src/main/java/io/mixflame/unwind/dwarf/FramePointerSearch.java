package io.mixflame.unwind.dwarf;

import io.mixflame.capture.HostRegisters;
import io.mixflame.image.dwarf.RegisterRule;
import io.mixflame.image.dwarf.CallFrameInfo;
import io.mixflame.image.dwarf.CfiRule;
import io.mixflame.process.MemoryReadException;
import io.mixflame.image.LoadedModule;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.UnwindContext;

/**
 * Finds the frame pointer of a frame whose CFA is rbp-based when the capture did not record rbp.
 *
 * <p>A thread blocked in the kernel gives only sp and pc ({@code /proc/PID/task/TID/syscall}). Walking up from
 * there, frames that keep rbp unchanged leave it unknown, and the first function that uses rbp as its frame pointer
 * cannot be unwound by its rule. Its frame pointer is still on the stack: it is the address of the slot holding the
 * caller's rbp, right below the return address, above the frame's sp and 16-byte aligned. Candidates are tried from
 * sp upwards, and one is taken only when the return address it implies follows a call instruction that calls this
 * very function (directly or through a PLT stub whose GOT entry points at it); failing that, the first candidate
 * whose return address follows an indirect call.
 */
final class FramePointerSearch {
    private static final int SEARCH_BYTES = 16 * 1024;

    private FramePointerSearch() {
    }

    /** Sets rbp in the context's registers when a convincing candidate is found. */
    static boolean recover(UnwindContext context, LoadedModule module, CallFrameInfo cfi, CfiRule rule) {
        Registers r = context.registers();
        long sp = r.sp();
        long functionStart = cfi.functionStart(context.lookupPc() - module.bias());
        if (functionStart < 0 || rule.returnAddress().kind() != RegisterRule.Kind.SAVED_AT) {
            return false;
        }
        long function = functionStart + module.bias();
        long high = Math.min(sp + SEARCH_BYTES, context.bounds().high());
        long fallback = 0;
        for (long candidate = (sp + 15) & ~15L; candidate + rule.cfaOffset() < high; candidate += 16) {
            long cfa = candidate + rule.cfaOffset();
            long returnAddress;
            try {
                returnAddress = context.memory().readLong(cfa + rule.returnAddress().offset());
            } catch (MemoryReadException e) {
                continue;
            }
            if (!context.modules().isExecutable(returnAddress)) {
                continue;
            }
            CallKind call = callBefore(context, returnAddress, function);
            if (call == CallKind.DIRECT_TO_FUNCTION) {
                r.set(HostRegisters.FP, candidate);
                return true;
            }
            if (call == CallKind.INDIRECT && fallback == 0) {
                fallback = candidate;
            }
        }
        if (fallback != 0) {
            r.set(HostRegisters.FP, fallback);
            return true;
        }
        return false;
    }

    private enum CallKind { NONE, INDIRECT, DIRECT_TO_FUNCTION, DIRECT_ELSEWHERE }

    /** What kind of call instruction ends right before {@code returnAddress}. */
    private static CallKind callBefore(UnwindContext context, long returnAddress, long function) {
        byte[] code = new byte[7];
        if (!context.memory().process().readFully(returnAddress - 7, code, 0, 7)) {
            return CallKind.NONE;
        }
        if ((code[2] & 0xff) == 0xe8) {
            int rel = (code[3] & 0xff) | (code[4] & 0xff) << 8 | (code[5] & 0xff) << 16 | code[6] << 24;
            long target = returnAddress + rel;
            return target == function || pltTargets(context, target, function)
                    ? CallKind.DIRECT_TO_FUNCTION : CallKind.DIRECT_ELSEWHERE;
        }
        // call *%reg (ff d0..d7), call *disp8(%reg) (ff 50..57 xx), call *disp32(%rip) / disp32(%reg) (ff 15 / ff 90..97).
        int b2 = code[5] & 0xff;
        int b3 = code[4] & 0xff;
        int b6 = code[1] & 0xff;
        if ((code[5] & 0xff) == 0xff && (code[6] & 0xf8) == 0xd0
                || (b3 == 0xff && (b2 & 0xf8) == 0x50)
                || (b6 == 0xff && ((code[2] & 0xff) == 0x15 || (code[2] & 0xf8) == 0x90))) {
            return CallKind.INDIRECT;
        }
        return CallKind.NONE;
    }

    /** Whether {@code stub} is a PLT stub ({@code jmp *GOT(%rip)}, with or without endbr64/bnd) that jumps to function. */
    private static boolean pltTargets(UnwindContext context, long stub, long function) {
        byte[] code = new byte[16];
        if (!context.memory().process().readFully(stub, code, 0, 16)) {
            return false;
        }
        int at = 0;
        if ((code[0] & 0xff) == 0xf3 && (code[1] & 0xff) == 0x0f && (code[2] & 0xff) == 0x1e
                && (code[3] & 0xff) == 0xfa) {
            at = 4;
        }
        if ((code[at] & 0xff) == 0xf2) {
            at++;
        }
        if ((code[at] & 0xff) != 0xff || (code[at + 1] & 0xff) != 0x25) {
            return false;
        }
        int rel = (code[at + 2] & 0xff) | (code[at + 3] & 0xff) << 8 | (code[at + 4] & 0xff) << 16
                | code[at + 5] << 24;
        long slot = stub + at + 6 + rel;
        try {
            return context.memory().process().readLong(slot) == function;
        } catch (MemoryReadException e) {
            return false;
        }
    }
}
