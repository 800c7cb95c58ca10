package io.mixflame.capture.x64;

/**
 * Word indexes of the kernel's {@code struct user_regs_struct} on x86-64, which ptrace's {@code PTRACE_GETREGS}
 * fills: the registers a stopped thread's walk starts from.
 */
public final class X64UserRegs {
    public static final int R12 = 3;
    public static final int RBP = 4;
    public static final int RBX = 5;
    public static final int RIP = 16;
    public static final int RSP = 19;
    /** The structure's size. */
    public static final int BYTES = 27 * 8;

    private X64UserRegs() {
    }
}
