package io.mixflame.image.dwarf;

import java.util.Objects;

/**
 * The unwind rule of one address range: how to find the canonical frame address (the caller's stack pointer)
 * and where the caller's frame pointer and return address are. Rules are interned, so equal rules are one
 * object and the table stores only an index per range.
 *
 * @param cfaRegister   the register the CFA is relative to (DWARF number), when there is no expression
 * @param cfaOffset     added to that register
 * @param cfaExpression computes the CFA instead, or null
 * @param fp            the caller's rbp
 * @param returnAddress the return address
 * @param signalFrame   the frame is a signal trampoline: the caller was interrupted, not calling
 */
public record CfiRule(int cfaRegister, long cfaOffset, DwarfExpression cfaExpression, RegisterRule fp,
                      RegisterRule returnAddress, boolean signalFrame) {

    // Written out rather than generated: rules are interned while samples are walked (see RegisterRule).
    @Override
    public boolean equals(Object o) {
        return o instanceof CfiRule r && cfaRegister == r.cfaRegister && cfaOffset == r.cfaOffset
                && signalFrame == r.signalFrame && Objects.equals(fp, r.fp)
                && Objects.equals(returnAddress, r.returnAddress) && Objects.equals(cfaExpression, r.cfaExpression);
    }

    @Override
    public int hashCode() {
        int h = cfaRegister * 31 + Long.hashCode(cfaOffset);
        h = h * 31 + Objects.hashCode(cfaExpression);
        h = h * 31 + Objects.hashCode(fp);
        h = h * 31 + Objects.hashCode(returnAddress);
        return h * 2 + (signalFrame ? 1 : 0);
    }
}
