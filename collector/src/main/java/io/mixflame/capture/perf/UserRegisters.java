package io.mixflame.capture.perf;

/**
 * The x86-64 user registers a sample carries ({@code PERF_SAMPLE_REGS_USER}), by their {@code perf_regs.h}
 * numbers. The kernel stores the requested ones in ascending number order, which {@link #slot} gives.
 */
public final class UserRegisters {
    public static final int BX = 1;
    public static final int BP = 6;
    public static final int SP = 7;
    public static final int IP = 8;
    public static final int R12 = 20;
    public static final int R13 = 21;
    public static final int R14 = 22;
    public static final int R15 = 23;

    /** ip, sp, bp and the other callee-saved registers. */
    public static final long MASK = bit(BX) | bit(BP) | bit(SP) | bit(IP) | bit(R12) | bit(R13) | bit(R14) | bit(R15);

    private UserRegisters() {
    }

    private static long bit(int register) {
        return 1L << register;
    }

    /** The position of a register among those in {@link #MASK}. */
    public static int slot(int register) {
        return Long.bitCount(MASK & (bit(register) - 1));
    }

    /** How many registers a sample carries. */
    public static int count() {
        return Long.bitCount(MASK);
    }
}
