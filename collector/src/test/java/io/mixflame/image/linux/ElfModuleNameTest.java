package io.mixflame.image.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.elf.ElfFile;
import io.mixflame.testsupport.ElfImageBuilder;
import io.mixflame.testsupport.LittleEndianWriter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How a Linux module is named in frames, and the soname and build id read for it. */
class ElfModuleNameTest {

    @Test
    void theSonameIsReadFromTheDynamicSection() {
        ElfFile elf = new ElfImageBuilder().section(".text", 0x1000, new byte[16]).soname("libsnappyjava.so").build();

        assertThat(elf.soname()).contains("libsnappyjava.so");
    }

    @Test
    void anImageWithoutADynamicSectionHasNoSoname() {
        ElfFile elf = new ElfImageBuilder().section(".text", 0x1000, new byte[16]).build();

        assertThat(elf.soname()).isEmpty();
    }

    @Test
    void aTemporaryCopyIsNamedByItsSoname() {
        ElfModuleImage image = new ElfModuleImage("/tmp/librocksdbjni10576709545269562131.so",
                () -> new ElfImageBuilder().section(".text", 0x1000, new byte[16]).soname("librocksdbjni-linux64.so")
                        .build());

        assertThat(image.name()).isEqualTo("librocksdbjni-linux64.so");
        assertThat(image.path()).isEqualTo("/tmp/librocksdbjni10576709545269562131.so");
    }

    @Test
    void aTemporaryCopyWithoutASonameLosesItsRandomPart() {
        ElfModuleImage image = new ElfModuleImage("/tmp/snappy-1.1.10-3f2b8c1e-9d4a-4e7b-a1c2-0b9e8d7f6a51-libsnappyjava.so",
                () -> new ElfImageBuilder().section(".text", 0x1000, new byte[16]).build());

        assertThat(image.name()).isEqualTo("snappy-1.1.10-libsnappyjava.so");
    }

    @Test
    void aTemporaryCopyThatCannotBeReadLosesItsRandomPart() {
        ElfModuleImage image = new ElfModuleImage("/tmp/liblz4-java-5871604928736140391.so", () -> {
            throw new java.io.IOException("deleted");
        });

        assertThat(image.name()).isEqualTo("liblz4-java.so");
    }

    @Test
    void anOrdinaryLibraryKeepsItsFileNameAndIsNotOpenedForIt() {
        AtomicInteger opened = new AtomicInteger();
        ElfModuleImage image = new ElfModuleImage("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", () -> {
            opened.incrementAndGet();
            return new ElfImageBuilder().section(".text", 0x1000, new byte[16]).soname("libz.so.1").build();
        });

        assertThat(image.name()).isEqualTo("libz.so.1.2.13");
        assertThat(opened).hasValue(0);
    }

    @Test
    void theBuildIdIsTheGnuNoteInHexadecimal() {
        byte[] note = new LittleEndianWriter().u32(4).u32(4).u32(3).u8('G').u8('N').u8('U').u8(0)
                .u8(0xde).u8(0xad).u8(0x0b).u8(0x01).toByteArray();
        ElfModuleImage image = new ElfModuleImage("/lib/libx.so",
                () -> new ElfImageBuilder().section(".note.gnu.build-id", 0x200, note).build());
        ElfModuleImage without = new ElfModuleImage("/lib/liby.so",
                () -> new ElfImageBuilder().section(".text", 0x1000, new byte[16]).build());

        assertThat(image.buildId()).isEqualTo("dead0b01");
        assertThat(without.buildId()).isEmpty();
    }
}
