package io.mixflame.capture.x64;

/**
 * The registers of x86-64 as DWARF numbers them (0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8–15
 * r8–r15, 16 the return address / rip): the numbering in which every capture stores a thread's registers and every
 * unwinder reads them, defined here once.
 */
public final class X64Registers {
    public static final int RBX = 3;
    public static final int RBP = 6;
    public static final int RSP = 7;
    public static final int R12 = 12;
    public static final int R13 = 13;
    public static final int R14 = 14;
    public static final int R15 = 15;
    public static final int RIP = 16;
    /** Number of register slots. */
    public static final int COUNT = 17;

    private X64Registers() {
    }
}
