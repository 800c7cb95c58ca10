package io.mixflame.image.dwarf;

import io.mixflame.image.elf.ByteCursor;
import io.mixflame.image.elf.ElfFormatException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

/** Runs one FDE's program (after its CIE's initial instructions) and emits its rows. */
final class CfiProgram {
    private final CfiCie cie;
    private final long end;
    private final RowSink out;
    private CfiState state = new CfiState();
    private final Deque<CfiState> saved = new ArrayDeque<>();
    private long location;
    private int rows;

    CfiProgram(CfiCie cie, long start, long end, RowSink out) {
        this.cie = cie;
        this.location = start;
        this.end = end;
        this.out = out;
    }

    void run(byte[] fdeInstructions) {
        if (cie.initial == null) {
            execute(cie.instructions, true);
            cie.initial = state.copy();
        }
        state = cie.initial.copy();
        execute(fdeInstructions, false);
        emitUntil(end);
        out.row(end, null);
    }

    private void emitUntil(long next) {
        if (next > location) {
            if (++rows > CfiParser.MAX_ROWS_PER_FDE) {
                throw new ElfFormatException("FDE with too many rows");
            }
            out.row(location, rule());
            location = next;
        }
    }

    private CfiRule rule() {
        RegisterRule ra = cie.returnRegister == CfiParser.RA ? state.ra : RegisterRule.UNDEFINED;
        return new CfiRule(state.cfaRegister, state.cfaOffset, state.cfaExpression, state.fp, ra,
                cie.signalFrame);
    }

    private void execute(byte[] code, boolean initial) {
        ByteCursor c = new ByteCursor(ByteBuffer.wrap(code), 0, code.length);
        while (!c.atEnd()) {
            int op = c.u8();
            int high = op & 0xc0;
            int low = op & 0x3f;
            if (high == 0x40) {
                advance(low * cie.codeAlign, initial);
            } else if (high == 0x80) {
                setRule(low, RegisterRule.savedAt(c.uleb128() * cie.dataAlign));
            } else if (high == 0xc0) {
                restore(low);
            } else {
                extended(op, c, initial);
            }
        }
    }

    private void extended(int op, ByteCursor c, boolean initial) {
        switch (op) {
            case 0x00 -> {
                // DW_CFA_nop
            }
            case 0x01 -> {
                long to = PointerEncoding.read(c, cie.pointerEncoding, null);
                if (!initial) {
                    emitUntil(to);
                }
            }
            case 0x02 -> advance(c.u8() * cie.codeAlign, initial);
            case 0x03 -> advance(c.u16() * cie.codeAlign, initial);
            case 0x04 -> advance(c.u32() * cie.codeAlign, initial);
            case 0x05 -> setRule((int) c.uleb128(), RegisterRule.savedAt(c.uleb128() * cie.dataAlign));
            case 0x06 -> restore((int) c.uleb128());
            case 0x07 -> setRule((int) c.uleb128(), RegisterRule.UNDEFINED);
            case 0x08 -> setRule((int) c.uleb128(), RegisterRule.SAME);
            case 0x09 -> {
                int reg = (int) c.uleb128();
                long other = c.uleb128();
                setRule(reg, new RegisterRule(RegisterRule.Kind.IN_REGISTER, other, null));
            }
            case 0x0a -> {
                if (saved.size() >= CfiParser.MAX_STATE_DEPTH) {
                    throw new ElfFormatException("CFI remember_state nested too deep");
                }
                saved.push(state.copy());
            }
            case 0x0b -> {
                if (saved.isEmpty()) {
                    throw new ElfFormatException("CFI restore_state without remember_state");
                }
                CfiState s = saved.pop();
                // The CFA rule is restored too: GCC emits remember/restore around epilogues.
                state = s;
            }
            case 0x0c -> {
                state.cfaRegister = (int) c.uleb128();
                state.cfaOffset = c.uleb128();
                state.cfaExpression = null;
            }
            case 0x0d -> {
                state.cfaRegister = (int) c.uleb128();
                state.cfaExpression = null;
            }
            case 0x0e -> state.cfaOffset = c.uleb128();
            case 0x0f -> {
                state.cfaExpression = new DwarfExpression(c.bytes((int) c.uleb128()));
            }
            case 0x10 -> {
                int reg = (int) c.uleb128();
                DwarfExpression e = new DwarfExpression(c.bytes((int) c.uleb128()));
                setRule(reg, new RegisterRule(RegisterRule.Kind.SAVED_AT_EXPRESSION, 0, e));
            }
            case 0x11 -> setRule((int) c.uleb128(), RegisterRule.savedAt(c.sleb128() * cie.dataAlign));
            case 0x12 -> {
                state.cfaRegister = (int) c.uleb128();
                state.cfaOffset = c.sleb128() * cie.dataAlign;
                state.cfaExpression = null;
            }
            case 0x13 -> state.cfaOffset = c.sleb128() * cie.dataAlign;
            case 0x14 -> {
                int reg = (int) c.uleb128();
                setRule(reg, new RegisterRule(RegisterRule.Kind.VALUE_AT, c.uleb128() * cie.dataAlign, null));
            }
            case 0x15 -> {
                int reg = (int) c.uleb128();
                setRule(reg, new RegisterRule(RegisterRule.Kind.VALUE_AT, c.sleb128() * cie.dataAlign, null));
            }
            case 0x16 -> {
                int reg = (int) c.uleb128();
                DwarfExpression e = new DwarfExpression(c.bytes((int) c.uleb128()));
                setRule(reg, new RegisterRule(RegisterRule.Kind.VALUE_OF_EXPRESSION, 0, e));
            }
            case 0x2e -> c.uleb128();
            case 0x2f -> setRule((int) c.uleb128(), RegisterRule.savedAt(-c.uleb128() * cie.dataAlign));
            default -> throw new ElfFormatException("unknown CFI instruction 0x" + Integer.toHexString(op));
        }
    }

    private void advance(long delta, boolean initial) {
        if (!initial) {
            emitUntil(location + delta);
        }
    }

    private void setRule(int register, RegisterRule rule) {
        if (register == CfiParser.RBP) {
            state.fp = rule;
        } else if (register == cie.returnRegister) {
            state.ra = rule;
        }
    }

    private void restore(int register) {
        CfiState initial = cie.initial != null ? cie.initial : new CfiState();
        if (register == CfiParser.RBP) {
            state.fp = initial.fp;
        } else if (register == cie.returnRegister) {
            state.ra = initial.ra;
        }
    }
}
