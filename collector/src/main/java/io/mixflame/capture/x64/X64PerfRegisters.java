package io.mixflame.capture.x64;

/**
 * The x86-64 user registers perf samples are asked for ({@code PERF_SAMPLE_REGS_USER}), by their {@code perf_regs.h}
 * numbers: ip, sp, bp and the other callee-saved registers, which a walk may start from.
 */
final class X64PerfRegisters {
    static final int BX = 1;
    static final int BP = 6;
    static final int SP = 7;
    static final int IP = 8;
    static final int R12 = 20;
    static final int R13 = 21;
    static final int R14 = 22;
    static final int R15 = 23;

    /** {@code sample_regs_user}. */
    static final long MASK = bit(BX) | bit(BP) | bit(SP) | bit(IP) | bit(R12) | bit(R13) | bit(R14) | bit(R15);

    /** Their DWARF numbers, in the kernel's order (ascending perf number). */
    static final int[] DWARF_IN_SAMPLE_ORDER = {X64Registers.RBX, X64Registers.RBP, X64Registers.RSP,
        X64Registers.RIP, X64Registers.R12, X64Registers.R13, X64Registers.R14, X64Registers.R15};

    private X64PerfRegisters() {
    }

    private static long bit(int register) {
        return 1L << register;
    }
}
