package io.mixflame.unwind;

import io.mixflame.capture.HostRegisters;
import java.util.Arrays;

/**
 * The registers of one frame during a walk, numbered by DWARF's numbers of the host's architecture ({@link HostRegisters}). Each
 * register is either known or not: a thread captured from {@code /proc} starts with only sp and pc known.
 */
public final class Registers {
    private final long[] values = new long[HostRegisters.COUNT];
    /** A bit per known register: a {@code long}, as an architecture may number up to 64 registers. */
    private long known;

    /** Sets a register and marks it known. */
    public void set(int register, long value) {
        values[register] = value;
        known |= 1L << register;
    }

    /** Marks a register unknown. */
    public void forget(int register) {
        known &= ~(1L << register);
    }

    /** Whether a register's value is known. */
    public boolean isKnown(int register) {
        return register >= 0 && register < HostRegisters.COUNT && (known & (1L << register)) != 0;
    }

    /** A register's value; meaningful only when {@link #isKnown(int)}. */
    public long get(int register) {
        return values[register];
    }

    public long pc() {
        return values[HostRegisters.PC];
    }

    public long sp() {
        return values[HostRegisters.SP];
    }

    public long fp() {
        return values[HostRegisters.FP];
    }

    /** Makes this a copy of another set. */
    public void copyFrom(Registers other) {
        System.arraycopy(other.values, 0, values, 0, HostRegisters.COUNT);
        known = other.known;
    }

    /** Forgets every register. */
    public void clear() {
        Arrays.fill(values, 0);
        known = 0;
    }
}
