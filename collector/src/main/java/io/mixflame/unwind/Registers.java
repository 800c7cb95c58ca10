package io.mixflame.unwind;

import io.mixflame.capture.x64.X64Registers;
import java.util.Arrays;

/**
 * The registers of one frame during a walk, numbered as {@link X64Registers} numbers them (DWARF's numbering). Each
 * register is either known or not: a thread captured from {@code /proc} starts with only sp and pc known.
 */
public final class Registers {
    private final long[] values = new long[X64Registers.COUNT];
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
        return register >= 0 && register < X64Registers.COUNT && (known & (1 << register)) != 0;
    }

    /** A register's value; meaningful only when {@link #isKnown(int)}. */
    public long get(int register) {
        return values[register];
    }

    public long pc() {
        return values[X64Registers.RIP];
    }

    public long sp() {
        return values[X64Registers.RSP];
    }

    public long fp() {
        return values[X64Registers.RBP];
    }

    /** Makes this a copy of another set. */
    public void copyFrom(Registers other) {
        System.arraycopy(other.values, 0, values, 0, X64Registers.COUNT);
        known = other.known;
    }

    /** Forgets every register. */
    public void clear() {
        Arrays.fill(values, 0);
        known = 0;
    }
}
