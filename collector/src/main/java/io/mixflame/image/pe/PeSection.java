package io.mixflame.image.pe;

/**
 * One entry of a PE section table.
 *
 * @param name           the section's name ({@code .text}, {@code .pdata}), at most 8 characters
 * @param virtualAddress RVA of the section's first byte once loaded
 * @param virtualSize    bytes the section occupies once loaded
 * @param rawOffset      file offset of the section's bytes
 * @param rawSize        bytes of the section present in the file (the rest of the virtual size is zero fill)
 */
public record PeSection(String name, long virtualAddress, long virtualSize, long rawOffset, long rawSize) {
    /** Bytes of address space the section covers: a zero virtual size means the raw size (old linkers). */
    public long loadedSize() {
        return virtualSize != 0 ? virtualSize : rawSize;
    }

    /** Whether an RVA falls in the section once loaded. */
    public boolean contains(long rva) {
        return rva >= virtualAddress && rva - virtualAddress < loadedSize();
    }
}
