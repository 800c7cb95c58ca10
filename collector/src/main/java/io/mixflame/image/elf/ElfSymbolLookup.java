package io.mixflame.image.elf;

import java.util.HashMap;
import java.util.Map;

/** Finds named symbols of any type (data included) in an ELF file's dynamic or static symbol table. */
public final class ElfSymbolLookup {
    private static final int SYMBOL_SIZE = 24;

    private ElfSymbolLookup() {
    }

    /**
     * The link-time values of every defined symbol whose name starts with {@code prefix}, from {@code .dynsym}
     * and {@code .symtab} (the first found wins), in one pass over the tables.
     */
    public static Map<String, Long> withPrefix(ElfFile elf, String prefix) {
        Map<String, Long> found = new HashMap<>();
        for (String table : new String[] {".dynsym", ".symtab"}) {
            var section = elf.section(table).filter(ElfSection::hasData);
            if (section.isEmpty()) {
                continue;
            }
            ElfSection strings = elf.section(section.get().link());
            if (!strings.hasData()) {
                continue;
            }
            ByteCursor c = elf.cursor(section.get());
            ByteCursor names = elf.cursor(strings);
            while (c.remaining() >= SYMBOL_SIZE) {
                long nameIndex = c.u32();
                c.u8();
                c.u8();
                int shndx = c.u16();
                long value = c.u64();
                c.u64();
                if (shndx == 0 || nameIndex == 0 || nameIndex >= strings.size()) {
                    continue;
                }
                names.seek(strings.offset() + nameIndex);
                String name = names.cstring();
                if (name.startsWith(prefix)) {
                    found.putIfAbsent(name, value);
                }
            }
        }
        return found;
    }
}
