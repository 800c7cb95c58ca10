package io.mixflame.unwind;

import java.util.Arrays;

/**
 * The registers of one frame during a walk, numbered as DWARF numbers them on x86-64 (0 rax, 1 rdx, 2 rcx,
 * 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8–15 r8–r15, 16 the return address / rip). Each register is either known
 * or not: a thread captured from {@code /proc} starts with only sp and pc known.
 */
public final class Registers {
    public static final int RBX = 3;
    public static final int RBP = 6;
    public static final int RSP = 7;
    public static final int R12 = 12;
    public static final int R15 = 15;
    public static final int RIP = 16;
    /** Number of register slots. */
    public static final int COUNT = 17;

    private final long[] values = new long[COUNT];
    private int known;

    /** Sets a register and marks it known. */
    public void set(int register, long value) {
        values[register] = value;
        known |= 1 << register;
    }

    /** Marks a register unknown. */
    public void forget(int register) {
        known &= ~(1 << register);
    }

    /** Whether a register's value is known. */
    public boolean isKnown(int register) {
        return register >= 0 && register < COUNT && (known & (1 << register)) != 0;
    }

    /** A register's value; meaningful only when {@link #isKnown(int)}. */
    public long get(int register) {
        return values[register];
    }

    public long pc() {
        return values[RIP];
    }

    public long sp() {
        return values[RSP];
    }

    public long fp() {
        return values[RBP];
    }

    /** Makes this a copy of another set. */
    public void copyFrom(Registers other) {
        System.arraycopy(other.values, 0, values, 0, COUNT);
        known = other.known;
    }

    /** Forgets every register. */
    public void clear() {
        Arrays.fill(values, 0);
        known = 0;
    }
}
