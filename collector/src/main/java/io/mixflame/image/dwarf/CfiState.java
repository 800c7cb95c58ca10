package io.mixflame.image.dwarf;

/** The rules in force at one point of a call frame program: the CFA's, the frame pointer's and the return address's. */
final class CfiState {
    int cfaRegister = 7;
    long cfaOffset = 8;
    DwarfExpression cfaExpression;
    RegisterRule fp = RegisterRule.SAME;
    RegisterRule ra = RegisterRule.UNDEFINED;

    CfiState copy() {
        CfiState s = new CfiState();
        s.cfaRegister = cfaRegister;
        s.cfaOffset = cfaOffset;
        s.cfaExpression = cfaExpression;
        s.fp = fp;
        s.ra = ra;
        return s;
    }
}
