package io.mixflame.image.dwarf;

import io.mixflame.image.elf.ByteCursor;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.image.elf.ElfSection;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Interprets the call frame information of a module ({@code .eh_frame}, and {@code .debug_frame} where present)
 * into a {@link CfiTable}: every FDE's program is run once, row by row, keeping the rules for the CFA, rbp and
 * the return address (what a walk needs; the other callee-saved registers are not tracked).
 */
public final class CfiParser {
    private static final int RA = 16;
    private static final int RBP = 6;
    private static final int MAX_STATE_DEPTH = 64;
    private static final int MAX_ROWS_PER_FDE = 100_000;

    private final ElfFile elf;
    private final Map<Long, Cie> cies = new HashMap<>();

    private CfiParser(ElfFile elf) {
        this.elf = elf;
    }

    /**
     * The table of a module.
     *
     * @param elf       the module's file
     * @param debugFile its separate debug file, whose {@code .debug_frame} adds to {@code .eh_frame}, or empty
     * @throws ElfFormatException when the sections are malformed
     */
    public static CallFrameInfo parse(ElfFile elf, Optional<ElfFile> debugFile) {
        Optional<CallFrameInfo> indexed = IndexedCfiTable.open(elf);
        if (indexed.isPresent()) {
            return indexed.get();
        }
        return parseAll(elf, debugFile);
    }

    /** Interprets every FDE now: for modules without an {@code .eh_frame_hdr} index. */
    static CfiTable parseAll(ElfFile elf, Optional<ElfFile> debugFile) {
        // The builder only here: a parser of single FDEs, kept by an indexed table for its module's life, needs none.
        CfiTableBuilder table = new CfiTableBuilder();
        CfiParser parser = new CfiParser(elf);
        elf.sectionWithData(".eh_frame").ifPresent(s -> parser.parseInto(s, true, table));
        elf.sectionWithData(".debug_frame").ifPresent(s -> parser.parseInto(s, false, table));
        debugFile.ifPresent(debug -> debug.sectionWithData(".debug_frame")
                .ifPresent(s -> new CfiParser(debug).parseInto(s, false, table)));
        return table.build();
    }

    private void parseInto(ElfSection section, boolean ehFrame, CfiTableBuilder into) {
        ByteCursor c = elf.cursor(section);
        while (c.remaining() >= 4) {
            int entryStart = c.position();
            long length = c.u32();
            if (length == 0) {
                if (ehFrame) {
                    break;
                }
                continue;
            }
            boolean dwarf64 = length == 0xffffffffL;
            if (dwarf64) {
                length = c.u64();
            }
            if (length > c.remaining()) {
                throw new ElfFormatException("CFI entry at " + entryStart + " runs past its section");
            }
            int idPosition = c.position();
            long end = idPosition + length;
            long id = dwarf64 ? c.u64() : c.u32();
            boolean isCie = ehFrame ? id == 0 : (dwarf64 ? id == -1L : id == 0xffffffffL);
            if (isCie) {
                cies.put((long) entryStart, readCie(c, end, ehFrame));
            } else {
                long ciePosition = ehFrame ? idPosition - id : section.offset() + id;
                Cie cie = cies.get(ciePosition);
                if (cie == null) {
                    cie = readCieAt(section, ciePosition, ehFrame);
                }
                readFde(c, end, cie, section, into);
            }
            c.seek(end);
        }
    }

    /** A parser of single FDEs of one module's {@code .eh_frame}, keeping the CIEs it has read. */
    static CfiParser forFdes(ElfFile elf) {
        return new CfiParser(elf);
    }

    /** Interprets the one FDE at a file offset of {@code .eh_frame} into {@code into}. */
    synchronized void parseFde(ElfSection ehFrame, long fdeOffset, RowSink into) {
        ByteCursor c = elf.cursor(ehFrame);
        c.seek(fdeOffset);
        long length = c.u32();
        boolean dwarf64 = length == 0xffffffffL;
        if (dwarf64) {
            length = c.u64();
        }
        if (length == 0 || length > c.remaining()) {
            throw new ElfFormatException("FDE at " + fdeOffset + " runs past its section");
        }
        int idPosition = c.position();
        long end = idPosition + length;
        long id = dwarf64 ? c.u64() : c.u32();
        if (id == 0) {
            throw new ElfFormatException("index points at a CIE, not an FDE");
        }
        long ciePosition = idPosition - id;
        Cie cie = cies.get(ciePosition);
        if (cie == null) {
            cie = readCieAt(ehFrame, ciePosition, true);
        }
        readFde(c, end, cie, ehFrame, into);
    }

    private Cie readCieAt(ElfSection section, long position, boolean ehFrame) {
        if (position < section.offset() || position >= section.offset() + section.size()) {
            throw new ElfFormatException("FDE points at a CIE outside its section");
        }
        ByteCursor c = elf.cursor(section);
        c.seek(position);
        long length = c.u32();
        boolean dwarf64 = length == 0xffffffffL;
        if (dwarf64) {
            length = c.u64();
        }
        long end = c.position() + length;
        if (length > c.remaining()) {
            throw new ElfFormatException("CIE runs past its section");
        }
        if (dwarf64) {
            c.u64();
        } else {
            c.u32();
        }
        Cie cie = readCie(c, end, ehFrame);
        cies.put(position, cie);
        return cie;
    }

    private Cie readCie(ByteCursor c, long end, boolean ehFrame) {
        Cie cie = new Cie();
        int version = c.u8();
        String augmentation = c.cstring();
        if (version >= 4) {
            c.u8();
            c.u8();
        }
        cie.codeAlign = c.uleb128();
        cie.dataAlign = c.sleb128();
        cie.returnRegister = version == 1 ? c.u8() : (int) c.uleb128();
        cie.pointerEncoding = ehFrame ? 0 : 0x04;
        if (augmentation.startsWith("z")) {
            long augLength = c.uleb128();
            long augEnd = c.position() + augLength;
            for (int i = 1; i < augmentation.length(); i++) {
                switch (augmentation.charAt(i)) {
                    case 'R' -> cie.pointerEncoding = c.u8();
                    case 'L' -> c.u8();
                    case 'P' -> {
                        int enc = c.u8();
                        PointerEncoding.skip(c, enc);
                    }
                    case 'S' -> cie.signalFrame = true;
                    default -> {
                        // Unknown letters are covered by the length; stop interpreting them.
                        i = augmentation.length();
                    }
                }
            }
            c.seek(augEnd);
            cie.hasAugmentationData = true;
        } else if (augmentation.contains("S")) {
            cie.signalFrame = true;
        }
        cie.instructions = c.bytes((int) (end - c.position()));
        return cie;
    }

    private void readFde(ByteCursor c, long end, Cie cie, ElfSection section, RowSink into) {
        long start = PointerEncoding.read(c, cie.pointerEncoding, section);
        long range = PointerEncoding.read(c, cie.pointerEncoding & 0x0f, section);
        if (cie.hasAugmentationData) {
            long augLength = c.uleb128();
            c.skip(augLength);
        }
        byte[] instructions = c.bytes((int) (end - c.position()));
        if (start == 0 || range <= 0) {
            return;
        }
        into.function(start);
        new Program(cie, start, start + range, into).run(instructions);
    }

    /** What a CIE says for all its FDEs. */
    private static final class Cie {
        long codeAlign = 1;
        long dataAlign = -8;
        int returnRegister = RA;
        int pointerEncoding;
        boolean signalFrame;
        boolean hasAugmentationData;
        byte[] instructions = new byte[0];
        State initial;
    }

    /** The rules in force at one point of a program. */
    private static final class State {
        int cfaRegister = 7;
        long cfaOffset = 8;
        DwarfExpression cfaExpression;
        RegisterRule fp = RegisterRule.SAME;
        RegisterRule ra = RegisterRule.UNDEFINED;

        State copy() {
            State s = new State();
            s.cfaRegister = cfaRegister;
            s.cfaOffset = cfaOffset;
            s.cfaExpression = cfaExpression;
            s.fp = fp;
            s.ra = ra;
            return s;
        }
    }

    /** Runs one FDE's program (after its CIE's initial instructions) and emits its rows. */
    private static final class Program {
        private final Cie cie;
        private final long end;
        private final RowSink out;
        private State state = new State();
        private final Deque<State> saved = new ArrayDeque<>();
        private long location;
        private int rows;

        Program(Cie cie, long start, long end, RowSink out) {
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
                if (++rows > MAX_ROWS_PER_FDE) {
                    throw new ElfFormatException("FDE with too many rows");
                }
                out.row(location, rule());
                location = next;
            }
        }

        private CfiRule rule() {
            RegisterRule ra = cie.returnRegister == RA ? state.ra : RegisterRule.UNDEFINED;
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
                    if (saved.size() >= MAX_STATE_DEPTH) {
                        throw new ElfFormatException("CFI remember_state nested too deep");
                    }
                    saved.push(state.copy());
                }
                case 0x0b -> {
                    if (saved.isEmpty()) {
                        throw new ElfFormatException("CFI restore_state without remember_state");
                    }
                    State s = saved.pop();
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
            if (register == RBP) {
                state.fp = rule;
            } else if (register == cie.returnRegister) {
                state.ra = rule;
            }
        }

        private void restore(int register) {
            State initial = cie.initial != null ? cie.initial : new State();
            if (register == RBP) {
                state.fp = initial.fp;
            } else if (register == cie.returnRegister) {
                state.ra = initial.ra;
            }
        }
    }
}
