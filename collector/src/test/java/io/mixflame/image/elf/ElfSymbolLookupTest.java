package io.mixflame.image.elf;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.ElfImageBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Exact-name and prefix look-ups in ELF symbol tables, built and real. */
class ElfSymbolLookupTest {
    private static final Path LIBJVM = Path.of(System.getProperty("java.home"), "lib/server/libjvm.so");

    @Test
    void exactNamesOfEveryLengthAreFoundInOnePassAndOthersAreZero() {
        ElfFile elf = new ElfImageBuilder()
                .symbol("abc", 0x10)
                .symbol("abcdefg", 0x20)
                .symbol("abcdefgh", 0x30)
                .symbol("abcdefghi", 0x40)
                .symbol("_ZN12StubCodeDesc5_listE", 0x50)
                .symbol("_ZN12StubCodeDesc5_list", 0x60)
                .symbol("x", 0x70)
                .build();
        long[] found = ElfSymbolLookup.addresses(elf, "abcdefghi", "abc", "abcdefgh", "abcdefg",
                "_ZN12StubCodeDesc5_listE", "_ZN12StubCodeDesc5_list", "ab", "abcd", "abcdefghij", "x");
        assertThat(found).containsExactly(0x40, 0x10, 0x30, 0x20, 0x50, 0x60, 0, 0, 0, 0x70);
    }

    @Test
    void aPrefixFindsEveryNameThatStartsWithIt() {
        ElfFile elf = new ElfImageBuilder()
                .symbol("gHotSpotVMStructs", 0x100)
                .symbol("gHotSpotVMTypes", 0x200)
                .symbol("gHotSpot", 0x300)
                .symbol("other", 0x400)
                .build();
        assertThat(ElfSymbolLookup.withPrefix(elf, "gHotSpotVM"))
                .containsOnlyKeys("gHotSpotVMStructs", "gHotSpotVMTypes")
                .containsEntry("gHotSpotVMStructs", 0x100L);
    }

    @Test
    void libjvmsHiddenVariablesAreFoundAsAScanOfEverySymbolFindsThem() throws Exception {
        ElfFile elf = ElfFile.open(LIBJVM);
        String[] names = {"_ZN12StubCodeDesc5_listE", "_ZN11VtableStubs6_tableE", "gHotSpotVMStructs",
            "JNI_CreateJavaVM", "no_such_symbol_in_libjvm"};
        long[] found = ElfSymbolLookup.addresses(elf, names);
        for (int i = 0; i < names.length; i++) {
            assertThat(found[i]).as(names[i]).isEqualTo(byScan(elf, names[i]));
        }
        assertThat(found[2]).isNotZero().isEqualTo(ElfSymbolLookup.withPrefix(elf, "gHotSpotVM")
                .get("gHotSpotVMStructs"));
        assertThat(found[3]).isNotZero();
        assertThat(found[4]).isZero();
    }

    /** The first defined symbol of that name in .dynsym then .symtab, read symbol by symbol. */
    private static long byScan(ElfFile elf, String name) {
        byte[] wanted = (name + "\0").getBytes(StandardCharsets.UTF_8);
        for (String table : new String[] {".dynsym", ".symtab"}) {
            var section = elf.section(table).filter(ElfSection::hasData);
            if (section.isEmpty()) {
                continue;
            }
            ByteBuffer symbols = elf.sectionBytes(section.get());
            ByteBuffer strings = elf.sectionBytes(elf.section(section.get().link()));
            for (int at = 0; at + 24 <= symbols.limit(); at += 24) {
                int nameIndex = symbols.getInt(at);
                if (symbols.getShort(at + 6) == 0 || nameIndex <= 0
                        || nameIndex + wanted.length > strings.limit()) {
                    continue;
                }
                byte[] here = new byte[wanted.length];
                strings.get(nameIndex, here);
                if (java.util.Arrays.equals(here, wanted)) {
                    return symbols.getLong(at + 8);
                }
            }
        }
        return 0;
    }
}
