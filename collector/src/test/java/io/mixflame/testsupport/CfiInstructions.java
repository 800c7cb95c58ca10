package io.mixflame.testsupport;

/**
 * A call frame program (the {@code DW_CFA_*} instructions of a CIE or an FDE) written one instruction at a time,
 * with the operand encodings of the DWARF standard. Offsets are given factored, as they are encoded: the reader
 * multiplies them by the CIE's alignment factors.
 */
public final class CfiInstructions {
    private final LittleEndianWriter out = new LittleEndianWriter();

    /** DW_CFA_advance_loc: the delta in the opcode's low 6 bits. */
    public CfiInstructions advanceLoc(int delta) {
        if (delta < 0 || delta > 0x3f) {
            throw new IllegalArgumentException("advance_loc takes 0..63, not " + delta);
        }
        out.u8(0x40 | delta);
        return this;
    }

    public CfiInstructions advanceLoc1(int delta) {
        out.u8(0x02).u8(delta);
        return this;
    }

    public CfiInstructions advanceLoc2(int delta) {
        out.u8(0x03).u16(delta);
        return this;
    }

    public CfiInstructions advanceLoc4(long delta) {
        out.u8(0x04).u32(delta);
        return this;
    }

    /** DW_CFA_offset: the register is saved at CFA + factoredOffset * data alignment. */
    public CfiInstructions offset(int register, long factoredOffset) {
        out.u8(0x80 | register).uleb(factoredOffset);
        return this;
    }

    public CfiInstructions offsetExtended(int register, long factoredOffset) {
        out.u8(0x05).uleb(register).uleb(factoredOffset);
        return this;
    }

    public CfiInstructions offsetExtendedSf(int register, long factoredOffset) {
        out.u8(0x11).uleb(register).sleb(factoredOffset);
        return this;
    }

    /** DW_CFA_restore: the register's rule goes back to the CIE's. */
    public CfiInstructions restore(int register) {
        out.u8(0xc0 | register);
        return this;
    }

    public CfiInstructions restoreExtended(int register) {
        out.u8(0x06).uleb(register);
        return this;
    }

    public CfiInstructions undefined(int register) {
        out.u8(0x07).uleb(register);
        return this;
    }

    public CfiInstructions sameValue(int register) {
        out.u8(0x08).uleb(register);
        return this;
    }

    /** DW_CFA_register: the caller's value of {@code register} is in {@code other}. */
    public CfiInstructions register(int register, int other) {
        out.u8(0x09).uleb(register).uleb(other);
        return this;
    }

    public CfiInstructions rememberState() {
        out.u8(0x0a);
        return this;
    }

    public CfiInstructions restoreState() {
        out.u8(0x0b);
        return this;
    }

    public CfiInstructions defCfa(int register, long offset) {
        out.u8(0x0c).uleb(register).uleb(offset);
        return this;
    }

    public CfiInstructions defCfaRegister(int register) {
        out.u8(0x0d).uleb(register);
        return this;
    }

    public CfiInstructions defCfaOffset(long offset) {
        out.u8(0x0e).uleb(offset);
        return this;
    }

    /** DW_CFA_def_cfa_sf: a factored, signed offset. */
    public CfiInstructions defCfaSf(int register, long factoredOffset) {
        out.u8(0x12).uleb(register).sleb(factoredOffset);
        return this;
    }

    public CfiInstructions defCfaOffsetSf(long factoredOffset) {
        out.u8(0x13).sleb(factoredOffset);
        return this;
    }

    public CfiInstructions defCfaExpression(byte[] expression) {
        out.u8(0x0f).uleb(expression.length).bytes(expression);
        return this;
    }

    /** DW_CFA_expression: the register is saved at the address the expression computes (the CFA pushed first). */
    public CfiInstructions expression(int register, byte[] expression) {
        out.u8(0x10).uleb(register).uleb(expression.length).bytes(expression);
        return this;
    }

    /** DW_CFA_val_offset: the caller's value is CFA + factoredOffset * data alignment. */
    public CfiInstructions valOffset(int register, long factoredOffset) {
        out.u8(0x14).uleb(register).uleb(factoredOffset);
        return this;
    }

    public CfiInstructions valExpression(int register, byte[] expression) {
        out.u8(0x16).uleb(register).uleb(expression.length).bytes(expression);
        return this;
    }

    public CfiInstructions gnuArgsSize(long size) {
        out.u8(0x2e).uleb(size);
        return this;
    }

    public CfiInstructions nop() {
        out.u8(0x00);
        return this;
    }

    /** Bytes that are not necessarily a valid instruction: for damaged programs. */
    public CfiInstructions raw(int... bytes) {
        for (int b : bytes) {
            out.u8(b);
        }
        return this;
    }

    public byte[] bytes() {
        return out.toByteArray();
    }
}
