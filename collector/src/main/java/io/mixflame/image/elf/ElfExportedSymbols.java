package io.mixflame.image.elf;

import io.mixflame.image.ExportedSymbols;
import java.util.Map;

/** The exported symbols of an ELF file: every defined symbol of its dynamic and static symbol tables. */
public final class ElfExportedSymbols implements ExportedSymbols {
    private final ElfFile elf;

    /** The symbols of {@code elf}, looked up when asked. */
    public ElfExportedSymbols(ElfFile elf) {
        this.elf = elf;
    }

    @Override
    public Map<String, Long> withPrefix(String prefix) {
        return ElfSymbolLookup.withPrefix(elf, prefix);
    }
}
