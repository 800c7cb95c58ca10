package io.mixflame.image.pe;

import java.util.Locale;
import java.util.Optional;

/**
 * A PE image's build identity from its debug directory's CodeView record ({@code RSDS}: a GUID and an age, which the
 * linker writes into the image and its PDB alike), spelled as symbol servers key PDBs: the GUID's 32 hexadecimal
 * digits in upper case, its first three fields as numbers, then the age in hexadecimal
 * ({@code 3F2B8C1E9D4A4E7BA1C20B9E8D7F6A511}).
 */
public final class PeCodeViewId {
    private static final int ENTRY_SIZE = 28;
    private static final int MAX_ENTRIES = 64;
    private static final long IMAGE_DEBUG_TYPE_CODEVIEW = 2;
    private static final long RSDS = 0x53445352L; // "RSDS", little-endian
    private static final int RECORD_SIZE = 24;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PeCodeViewId() {
    }

    /**
     * The identity, or empty when the image has no CodeView record of the PDB 7.0 kind.
     *
     * @throws PeFormatException when the directory or the record lies outside the image
     */
    public static Optional<String> read(PeFile file) {
        PeDataDirectory dir = file.directory(PeFile.DIRECTORY_DEBUG);
        if (!dir.isPresent()) {
            return Optional.empty();
        }
        long entries = Math.min(dir.size() / ENTRY_SIZE, MAX_ENTRIES);
        file.rvaToOffset(dir.rva(), entries * ENTRY_SIZE);
        for (long i = 0; i < entries; i++) {
            long entry = dir.rva() + i * ENTRY_SIZE;
            long type = file.u32(entry + 12);
            long size = file.u32(entry + 16);
            long data = file.u32(entry + 20);
            if (type != IMAGE_DEBUG_TYPE_CODEVIEW || size < RECORD_SIZE || data == 0) {
                continue;
            }
            file.rvaToOffset(data, RECORD_SIZE);
            if (file.u32(data) != RSDS) {
                continue;
            }
            StringBuilder id = new StringBuilder(40);
            hex(id, file.u32(data + 4), 8);
            hex(id, file.u16(data + 8), 4);
            hex(id, file.u16(data + 10), 4);
            for (int k = 12; k < 20; k++) {
                hex(id, file.u8(data + k), 2);
            }
            id.append(Long.toHexString(file.u32(data + 20)).toUpperCase(Locale.ROOT));
            return Optional.of(id.toString());
        }
        return Optional.empty();
    }

    private static void hex(StringBuilder out, long value, int digits) {
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            out.append(HEX[(int) (value >>> shift) & 0xf]);
        }
    }
}
