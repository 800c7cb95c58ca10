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
        byte[] prefixBytes = prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
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
            java.nio.ByteBuffer nameBytes = elf.sectionBytes(strings);
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
                // Compared as bytes first: libjvm has tens of thousands of symbols and a few dozen match.
                if (!startsWith(nameBytes, strings, nameIndex, prefixBytes)) {
                    continue;
                }
                names.seek(strings.offset() + nameIndex);
                found.putIfAbsent(names.cstring(), value);
            }
        }
        return found;
    }

    private static boolean startsWith(java.nio.ByteBuffer table, ElfSection strings, long index, byte[] prefix) {
        if (index + prefix.length > strings.size()) {
            return false;
        }
        int at = (int) index;
        for (int i = 0; i < prefix.length; i++) {
            if (table.get(at + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
