package io.mixflame.image.dwarf;

import java.util.Objects;

/**
 * Where the caller's value of one register is, in the terms of DWARF call frame information.
 *
 * @param kind       the kind of rule
 * @param offset     for {@code SAVED_AT} and {@code VALUE_AT}: the offset from the CFA; for {@code IN_REGISTER}: the register
 * @param expression for the expression kinds
 */
public record RegisterRule(Kind kind, long offset, DwarfExpression expression) {
    /** The kinds of rule. */
    public enum Kind {
        /** The caller's value cannot be recovered. */
        UNDEFINED,
        /** The register was not changed by this frame. */
        SAME,
        /** Saved in memory at CFA + offset. */
        SAVED_AT,
        /** The value is CFA + offset. */
        VALUE_AT,
        /** The value is in another register. */
        IN_REGISTER,
        /** Saved in memory at the address the expression computes (the CFA pushed first). */
        SAVED_AT_EXPRESSION,
        /** The value is what the expression computes. */
        VALUE_OF_EXPRESSION
    }

    public static final RegisterRule UNDEFINED = new RegisterRule(Kind.UNDEFINED, 0, null);
    public static final RegisterRule SAME = new RegisterRule(Kind.SAME, 0, null);

    public static RegisterRule savedAt(long offset) {
        return new RegisterRule(Kind.SAVED_AT, offset, null);
    }

    // Written out rather than generated: rules are interned while samples are walked, and a record's generated
    // equals and hashCode go through method handles that the service's JIT would compile for us.
    @Override
    public boolean equals(Object o) {
        return o instanceof RegisterRule r && kind == r.kind && offset == r.offset
                && Objects.equals(expression, r.expression);
    }

    @Override
    public int hashCode() {
        return (kind.ordinal() * 31 + Long.hashCode(offset)) * 31 + Objects.hashCode(expression);
    }
}
