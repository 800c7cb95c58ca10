package io.mixflame.image.dwarf;

import io.mixflame.image.elf.ByteCursor;
import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.image.elf.ElfSection;

/** The {@code DW_EH_PE_*} pointer encodings of {@code .eh_frame}. */
final class PointerEncoding {
    static final int OMIT = 0xff;

    private PointerEncoding() {
    }

    /**
     * Reads a pointer. PC-relative values are made absolute with the section's load address, so the result is a
     * link-time address of the module; {@code section} may be null where PC-relative values cannot occur.
     */
    static long read(ByteCursor c, int encoding, ElfSection section) {
        if (encoding == OMIT) {
            return 0;
        }
        int fieldPosition = c.position();
        long value = switch (encoding & 0x0f) {
            case 0x00, 0x04, 0x0c -> c.u64();
            case 0x01 -> c.uleb128();
            case 0x02 -> c.u16();
            case 0x03 -> c.u32();
            case 0x09 -> c.sleb128();
            case 0x0a -> c.s16();
            case 0x0b -> c.s32();
            default -> throw new ElfFormatException("unknown pointer format 0x" + Integer.toHexString(encoding));
        };
        switch (encoding & 0x70) {
            case 0x00 -> {
                return value;
            }
            case 0x10 -> {
                if (section == null) {
                    throw new ElfFormatException("PC-relative pointer where none can be");
                }
                return value + section.address() + (fieldPosition - section.offset());
            }
            default -> throw new ElfFormatException("unsupported pointer application 0x"
                    + Integer.toHexString(encoding & 0x70));
        }
    }

    /** Skips a pointer whose value is not needed (a personality routine's). */
    static void skip(ByteCursor c, int encoding) {
        if (encoding == OMIT) {
            return;
        }
        switch (encoding & 0x0f) {
            case 0x00, 0x04, 0x0c -> c.u64();
            case 0x01 -> c.uleb128();
            case 0x02, 0x0a -> c.u16();
            case 0x03, 0x0b -> c.u32();
            case 0x09 -> c.sleb128();
            default -> throw new ElfFormatException("unknown pointer format 0x" + Integer.toHexString(encoding));
        }
    }
}
