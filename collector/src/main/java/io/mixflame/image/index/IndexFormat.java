package io.mixflame.image.index;

/**
 * The layout of a module index file, all numbers little-endian. A fixed header, the key, a table of sections, then
 * the sections, each at a multiple of 8 bytes:
 *
 * <pre>
 *  0  magic "MXFLIDX\0"             8  u32 format version      12  u32 header bytes (fixed part, key, section table)
 * 16  u32 CRC32C of the whole file with these 4 bytes zero     20  u32 number of sections
 * 24  u64 file bytes                32  u64 module size         40  u32 key kind   44  u32 key bytes
 * 48  16 bytes zero (reserved)      64  key bytes, zero-padded to a multiple of 8
 * then per section: u32 kind, u32 entries, u64 offset, u64 bytes
 * </pre>
 *
 * Readers skip section kinds they do not know, so later versions can add sections (CFI rows, say) without a new
 * format version; a change to an existing section's layout takes a new version, which older readers refuse.
 */
final class IndexFormat {
    static final byte[] MAGIC = {'M', 'X', 'F', 'L', 'I', 'D', 'X', 0};
    static final int VERSION = 1;
    static final int FIXED_HEADER = 64;
    static final int VERSION_AT = 8;
    static final int HEADER_BYTES_AT = 12;
    static final int CHECKSUM_AT = 16;
    static final int SECTION_COUNT_AT = 20;
    static final int FILE_BYTES_AT = 24;
    static final int MODULE_SIZE_AT = 32;
    static final int KEY_KIND_AT = 40;
    static final int KEY_BYTES_AT = 44;
    static final int SECTION_ENTRY = 24;
    /** More sections than any version will write: a damaged count must not make a long loop. */
    static final int MAX_SECTIONS = 64;
    static final int MAX_KEY = 8192;

    private IndexFormat() {
    }

    /** {@code n} rounded up to a multiple of 8. */
    static long align8(long n) {
        return (n + 7) & ~7L;
    }
}
