package io.mixflame.image.elf;

import io.mixflame.image.SymbolTableBuilder;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Reads the function symbols of an ELF file: {@code .symtab} first (it has the local functions), then
 * {@code .dynsym}, then the PLT entries as {@code name@plt}.
 */
public final class ElfSymbolReader {
    private static final int STT_FUNC = 2;
    private static final int STT_GNU_IFUNC = 10;
    private static final int SYMBOL_SIZE = 24;
    private static final int RELA_SIZE = 24;
    private static final int PLT_ENTRY = 16;

    private ElfSymbolReader() {
    }

    /** Adds every function symbol of {@code elf} to the builder. */
    public static void readInto(ElfFile elf, SymbolTableBuilder out) {
        for (String table : new String[] {".symtab", ".dynsym"}) {
            Optional<ElfSection> s = elf.sectionWithData(table);
            if (s.isPresent()) {
                readTable(elf, s.get(), out);
            }
        }
        readPlt(elf, out);
    }

    private static void readTable(ElfFile elf, ElfSection table, SymbolTableBuilder out) {
        ElfSection strings = elf.section(table.link());
        if (!strings.hasData()) {
            return;
        }
        ByteCursor c = elf.cursor(table);
        out.reserve(c.remaining() / SYMBOL_SIZE);
        int names = out.strings(strings(elf, strings));
        while (c.remaining() >= SYMBOL_SIZE) {
            long name = c.u32();
            int info = c.u8();
            c.u8();
            int shndx = c.u16();
            long value = c.u64();
            long size = c.u64();
            int type = info & 0xf;
            if ((type != STT_FUNC && type != STT_GNU_IFUNC) || shndx == 0 || value == 0 || name == 0) {
                continue;
            }
            if (name >= strings.size()) {
                continue;
            }
            out.add(value, size, names, name, false);
        }
    }

    /**
     * PLT stubs have no symbols; their names come from the PLT relocations, whose order matches the stubs: in
     * {@code .plt.sec} when the file has it (indirect-branch tracking), else in {@code .plt} after its first,
     * resolver entry.
     */
    private static void readPlt(ElfFile elf, SymbolTableBuilder out) {
        Optional<ElfSection> rela = elf.sectionWithData(".rela.plt");
        Optional<ElfSection> pltSec = elf.section(".plt.sec");
        Optional<ElfSection> plt = elf.section(".plt");
        if (rela.isEmpty() || (pltSec.isEmpty() && plt.isEmpty())) {
            return;
        }
        long base = pltSec.isPresent() ? pltSec.get().address() : plt.get().address() + PLT_ENTRY;
        ElfSection dynsym = elf.section(rela.get().link());
        if (!dynsym.hasData()) {
            return;
        }
        ElfSection strings = elf.section(dynsym.link());
        if (!strings.hasData()) {
            return;
        }
        ByteCursor relocs = elf.cursor(rela.get());
        ByteCursor symbols = elf.cursor(dynsym);
        int names = out.strings(strings(elf, strings));
        for (int i = 0; relocs.remaining() >= RELA_SIZE; i++) {
            relocs.u64();
            long info = relocs.u64();
            relocs.u64();
            long symbol = info >>> 32;
            long at = dynsym.offset() + symbol * SYMBOL_SIZE;
            if (symbol == 0 || at + SYMBOL_SIZE > dynsym.offset() + dynsym.size()) {
                continue;
            }
            symbols.seek(at);
            long name = symbols.u32();
            if (name == 0 || name >= strings.size()) {
                continue;
            }
            out.add(base + (long) i * PLT_ENTRY, PLT_ENTRY, names, name, true);
        }
    }

    /** A string table's bytes, one buffer per file and table so that the symbol table can share it. */
    private static ByteBuffer strings(ElfFile elf, ElfSection strings) {
        return elf.sectionBytes(strings);
    }
}
