package io.mixflame.testsupport;

import io.mixflame.image.elf.ElfFile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a minimal 64-bit little-endian x86-64 ELF image in memory: a header, the sections a test gives (name,
 * load address, bytes), an optional symbol table, an optional dynamic section naming the image, the section name table and no program headers. Enough for the
 * profiler's ELF reader to find sections and symbols, which is all the code under test asks of a module.
 */
public final class ElfImageBuilder {
    private static final int SHT_PROGBITS = 1;
    private static final int SHT_SYMTAB = 2;
    private static final int SHT_STRTAB = 3;
    private static final long SHF_ALLOC = 2;
    private static final int SHN_ABS = 0xfff1;
    private static final int SHT_DYNAMIC = 6;
    private static final long DT_NEEDED = 1;
    private static final long DT_SONAME = 14;

    private record Section(String name, int type, long flags, long address, byte[] bytes, int link, long entrySize) {
    }

    private final List<Section> sections = new ArrayList<>();
    private final Map<String, Long> symbols = new LinkedHashMap<>();
    private String soname;

    /** Adds a loaded section of plain bytes, such as {@code .eh_frame}, at a link-time address. */
    public ElfImageBuilder section(String name, long address, byte[] bytes) {
        sections.add(new Section(name, SHT_PROGBITS, SHF_ALLOC, address, bytes.clone(), 0, 0));
        return this;
    }

    /** Adds a symbol with an absolute value (written to {@code .symtab}). */
    public ElfImageBuilder symbol(String name, long value) {
        symbols.put(name, value);
        return this;
    }

    /** Gives the image a {@code .dynamic} section whose {@code DT_SONAME} is {@code name}. */
    public ElfImageBuilder soname(String name) {
        soname = name;
        return this;
    }

    /** The image's bytes. */
    public byte[] bytes() {
        List<Section> all = new ArrayList<>(sections);
        if (soname != null) {
            // .dynamic links to .dynstr, the section after it; a DT_NEEDED entry first, as linkers write them.
            LittleEndianWriter strings = new LittleEndianWriter().u8(0);
            int needed = strings.size();
            strings.cstring("libc.so.6");
            int own = strings.size();
            strings.cstring(soname);
            LittleEndianWriter dynamic = new LittleEndianWriter()
                    .u64(DT_NEEDED).u64(needed).u64(DT_SONAME).u64(own).u64(0).u64(0);
            all.add(new Section(".dynamic", SHT_DYNAMIC, SHF_ALLOC, 0, dynamic.toByteArray(), all.size() + 2, 16));
            all.add(new Section(".dynstr", SHT_STRTAB, SHF_ALLOC, 0, strings.toByteArray(), 0, 0));
        }
        if (!symbols.isEmpty()) {
            // .symtab links to .strtab by index: sections 1..n are the test's, then .symtab, then .strtab.
            int strtabIndex = all.size() + 2;
            LittleEndianWriter names = new LittleEndianWriter().u8(0);
            LittleEndianWriter table = new LittleEndianWriter();
            table.u32(0).u8(0).u8(0).u16(0).u64(0).u64(0);
            for (Map.Entry<String, Long> s : symbols.entrySet()) {
                table.u32(names.size()).u8(0x11).u8(0).u16(SHN_ABS).u64(s.getValue()).u64(8);
                names.cstring(s.getKey());
            }
            all.add(new Section(".symtab", SHT_SYMTAB, 0, 0, table.toByteArray(), strtabIndex, 24));
            all.add(new Section(".strtab", SHT_STRTAB, 0, 0, names.toByteArray(), 0, 0));
        }
        LittleEndianWriter shstrtab = new LittleEndianWriter().u8(0);
        int[] nameIndex = new int[all.size() + 1];
        for (int i = 0; i < all.size(); i++) {
            nameIndex[i] = shstrtab.size();
            shstrtab.cstring(all.get(i).name());
        }
        nameIndex[all.size()] = shstrtab.size();
        shstrtab.cstring(".shstrtab");
        all.add(new Section(".shstrtab", SHT_STRTAB, 0, 0, shstrtab.toByteArray(), 0, 0));

        LittleEndianWriter out = new LittleEndianWriter();
        out.bytes(new byte[64]);
        long[] offsets = new long[all.size()];
        for (int i = 0; i < all.size(); i++) {
            out.align(8);
            offsets[i] = out.size();
            out.bytes(all.get(i).bytes());
        }
        out.align(8);
        long shoff = out.size();
        out.bytes(new byte[64]);
        for (int i = 0; i < all.size(); i++) {
            Section s = all.get(i);
            out.u32(nameIndex[i]).u32(s.type()).u64(s.flags()).u64(s.address()).u64(offsets[i])
                    .u64(s.bytes().length).u32(s.link()).u32(0).u64(8).u64(s.entrySize());
        }
        writeHeader(out, shoff, all.size() + 1);
        return out.toByteArray();
    }

    /** The image parsed by the profiler's own ELF reader. */
    public ElfFile build() {
        return ElfFile.parse(ByteBuffer.wrap(bytes()));
    }

    private static void writeHeader(LittleEndianWriter out, long shoff, int sectionCount) {
        LittleEndianWriter h = new LittleEndianWriter();
        h.u8(0x7f).u8('E').u8('L').u8('F').u8(2).u8(1).u8(1).u8(0).u64(0);
        h.u16(3).u16(ElfFile.EM_X86_64).u32(1).u64(0).u64(0).u64(shoff).u32(0);
        h.u16(64).u16(56).u16(0).u16(64).u16(sectionCount).u16(sectionCount - 1);
        out.patch(0, h.toByteArray());
    }
}
