package io.mixflame.capture.x64;

/**
 * Word indexes of the kernel's {@code struct user_regs_struct} on x86-64, the register set ptrace reads
 * ({@code PTRACE_GETREGSET} of {@code NT_PRSTATUS}): the registers a stopped thread's walk starts from.
 */
final class X64UserRegs {
    static final int R12 = 3;
    static final int RBP = 4;
    static final int RBX = 5;
    static final int RIP = 16;
    static final int RSP = 19;
    /** The structure's size. */
    static final int BYTES = 27 * 8;

    private X64UserRegs() {
    }
}
