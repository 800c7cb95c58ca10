package io.mixflame.image.dwarf;

import io.mixflame.image.elf.ByteCursor;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.image.elf.ElfSection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Interprets the call frame information of a module ({@code .eh_frame}, and {@code .debug_frame} where present)
 * into a {@link CfiTable}: every FDE's program is run once, row by row, keeping the rules for the CFA, rbp and
 * the return address (what a walk needs; the other callee-saved registers are not tracked).
 */
public final class CfiParser {
    static final int RA = 16;
    static final int RBP = 6;
    static final int MAX_STATE_DEPTH = 64;
    static final int MAX_ROWS_PER_FDE = 100_000;

    private final ElfFile elf;
    private final Map<Long, CfiCie> cies = new HashMap<>();

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
                CfiCie cie = cies.get(ciePosition);
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
        CfiCie cie = cies.get(ciePosition);
        if (cie == null) {
            cie = readCieAt(ehFrame, ciePosition, true);
        }
        readFde(c, end, cie, ehFrame, into);
    }

    private CfiCie readCieAt(ElfSection section, long position, boolean ehFrame) {
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
        CfiCie cie = readCie(c, end, ehFrame);
        cies.put(position, cie);
        return cie;
    }

    private CfiCie readCie(ByteCursor c, long end, boolean ehFrame) {
        CfiCie cie = new CfiCie();
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

    private void readFde(ByteCursor c, long end, CfiCie cie, ElfSection section, RowSink into) {
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
        new CfiProgram(cie, start, start + range, into).run(instructions);
    }
}
