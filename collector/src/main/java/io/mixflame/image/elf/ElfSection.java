package io.mixflame.image.elf;

/**
 * A section header.
 *
 * @param name      the section's name, such as {@code .eh_frame}
 * @param type      {@code sh_type}
 * @param flags     {@code sh_flags}
 * @param address   the virtual address it is loaded at (0 when not loaded)
 * @param offset    where its bytes start in the file
 * @param size      its size in bytes
 * @param link      {@code sh_link}: for a symbol table, the index of its string table
 * @param entrySize {@code sh_entsize}
 */
public record ElfSection(String name, int type, long flags, long address, long offset, long size, int link,
                         long entrySize) {
    /** A symbol table. */
    public static final int SHT_SYMTAB = 2;
    /** The dynamic symbol table. */
    public static final int SHT_DYNSYM = 11;
    /** The dynamic linking table ({@code .dynamic}). */
    public static final int SHT_DYNAMIC = 6;
    /** A section with no bytes in the file. */
    public static final int SHT_NOBITS = 8;
    /** Relocations with addends. */
    public static final int SHT_RELA = 4;

    /** Whether the file holds the section's bytes. */
    public boolean hasData() {
        return type != SHT_NOBITS && size > 0;
    }
}
