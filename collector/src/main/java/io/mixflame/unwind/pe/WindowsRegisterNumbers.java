package io.mixflame.unwind.pe;

import io.mixflame.unwind.Registers;

/**
 * Translates the register numbers of x64 unwind codes (the x86 instruction encoding's order: 0 rax, 1 rcx, 2 rdx,
 * 3 rbx, 4 rsp, 5 rbp, 6 rsi, 7 rdi, 8–15 r8–r15) to the DWARF numbers {@link Registers} uses (0 rax, 1 rdx,
 * 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8–15 r8–r15).
 */
final class WindowsRegisterNumbers {
    private static final int[] TO_DWARF = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
    /** Windows' number of rsp, which no push, save or pop of a well-formed epilog or prolog names. */
    static final int RSP = 4;

    private WindowsRegisterNumbers() {
    }

    /** The DWARF number of a Windows register number 0–15. */
    static int toDwarf(int windowsRegister) {
        return TO_DWARF[windowsRegister & 0xf];
    }
}
