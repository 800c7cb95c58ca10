package io.mixflame.image.elf;

/** An ELF file, or a DWARF section in it, is not what its headers say. */
public final class ElfFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ElfFormatException(String message) {
        super(message);
    }
}
