package io.mixflame.image.dwarf;

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
}
