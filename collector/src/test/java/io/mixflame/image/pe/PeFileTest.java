package io.mixflame.image.pe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.testsupport.LittleEndianWriter;
import io.mixflame.testsupport.PeImageBuilder;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PeFileTest {
    private static final byte[] TEXT = {(byte) 0x55, (byte) 0x48, (byte) 0x89, (byte) 0xe5, (byte) 0xc3};

    private static byte[] image() {
        PeImageBuilder b = new PeImageBuilder().imageBase(0x7ff6_0000_0000L);
        b.section(".text", TEXT);
        b.section(".rdata", new LittleEndianWriter().cstring("hello").u32(0xdeadbeefL).toByteArray());
        return b.build();
    }

    @Test
    void readsHeadersAndSections() {
        PeFile pe = PeFile.parse(ByteBuffer.wrap(image()));

        assertThat(pe.machine()).isEqualTo(PeFile.MACHINE_AMD64);
        assertThat(pe.imageBase()).isEqualTo(0x7ff6_0000_0000L);
        assertThat(pe.sizeOfImage()).isEqualTo(0x3000);
        assertThat(pe.sections()).extracting(PeSection::name).containsExactly(".text", ".rdata");
        assertThat(pe.sections().get(1).virtualAddress()).isEqualTo(0x2000);
        assertThat(pe.sections().get(1).virtualSize()).isEqualTo(10);
        assertThat(pe.directory(PeFile.DIRECTORY_EXPORT).isPresent()).isFalse();
        assertThat(pe.directory(99)).isEqualTo(PeDataDirectory.ABSENT);
    }

    @Test
    void mapsRvasToFileData() {
        byte[] bytes = image();
        PeFile pe = PeFile.parse(ByteBuffer.wrap(bytes));

        long offset = pe.rvaToOffset(0x1001, 4);
        assertThat(Arrays.copyOfRange(bytes, (int) offset, (int) offset + 4))
                .containsExactly(0x48, 0x89, 0xe5, 0xc3);
        assertThat(pe.u8(0x1004)).isEqualTo(0xc3);
        assertThat(pe.cString(0x2000, 16)).isEqualTo("hello");
        assertThat(pe.u32(0x2006)).isEqualTo(0xdeadbeefL);
        assertThat(pe.u16(0)).isEqualTo(0x5a4d); // headers map to themselves
    }

    @Test
    void aLoadedImageIsReadAtItsRvas() {
        PeImageBuilder b = new PeImageBuilder().imageBase(0x7ff6_0000_0000L).timeDateStamp(0x6543_2100L);
        b.section(".text", TEXT);
        b.section(".rdata", new LittleEndianWriter().cstring("hello").u32(0xdeadbeefL).toByteArray());
        byte[] loaded = b.buildLoaded();
        PeFile pe = PeFile.parseLoaded(ByteBuffer.wrap(loaded));

        assertThat(pe.u8(0x1000)).isEqualTo(0x55);
        assertThat(pe.u32(0x2006)).isEqualTo(0xdeadbeefL);
        assertThat(pe.timeDateStamp()).isEqualTo(0x6543_2100L);
        assertThat(pe.isSameBuildAs(PeFile.parse(ByteBuffer.wrap(b.build())))).isTrue();
    }

    @Test
    void loadedHeadersAloneTellTheBuildAndHoldNoSectionBytes() {
        PeImageBuilder b = new PeImageBuilder().timeDateStamp(7);
        b.section(".text", TEXT);
        PeFile headers = PeFile.parseLoaded(ByteBuffer.wrap(Arrays.copyOf(b.buildLoaded(), 0x1000)));
        PeImageBuilder other = new PeImageBuilder().timeDateStamp(8);
        other.section(".text", TEXT);

        assertThat(headers.isSameBuildAs(PeFile.parse(b.buildBuffer()))).isTrue();
        assertThat(headers.isSameBuildAs(PeFile.parse(other.buildBuffer()))).as("another link stamp").isFalse();
        assertThat(headers.isSameBuildAs(PeFile.parse(ByteBuffer.wrap(image())))).as("another size").isFalse();
        assertThatThrownBy(() -> headers.u8(0x1000)).isInstanceOf(PeFormatException.class);
    }

    @Test
    void rvasOutsideSectionsAreRejected() {
        PeFile pe = PeFile.parse(ByteBuffer.wrap(image()));

        assertThatThrownBy(() -> pe.u8(0x5000)).isInstanceOf(PeFormatException.class)
                .hasMessageContaining("no section");
        // Inside .text's page but past its 5 bytes of data.
        assertThatThrownBy(() -> pe.u32(0x1003)).isInstanceOf(PeFormatException.class)
                .hasMessageContaining(".text");
        assertThatThrownBy(() -> pe.rvaToOffset(-1, 1)).isInstanceOf(PeFormatException.class);
        assertThatThrownBy(() -> pe.cString(0x1000, 3)).isInstanceOf(PeFormatException.class);
    }

    @Test
    void zeroFillPastTheRawDataIsNotReadFromTheFile() {
        // The last section (.rdata) claims 0xf00 bytes once loaded but has 0x200 in the file, which ends there.
        int rdataHeader = PeImageBuilder.SECTION_TABLE_OFFSET + 40;
        PeFile pe = PeFile.parse(ByteBuffer.wrap(patched(rdataHeader + 8, 4, 0xf00)));

        assertThat(pe.sections().get(1).loadedSize()).isEqualTo(0xf00);
        assertThat(pe.u32(0x2006)).isEqualTo(0xdeadbeefL);
        assertThatThrownBy(() -> pe.u32(0x2400)).isInstanceOf(PeFormatException.class)
                .hasMessageContaining("past the file data");
    }

    @Test
    void truncatedImagesAreRejectedAtEveryLength() {
        byte[] bytes = image();
        int sectionTableEnd = PeImageBuilder.SECTION_TABLE_OFFSET + 2 * 40;
        for (int length = 0; length < sectionTableEnd; length++) {
            byte[] cut = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> PeFile.parse(ByteBuffer.wrap(cut)))
                    .as("cut at %d", length).isInstanceOf(PeFormatException.class);
        }
        // Headers complete but the sections' data missing.
        byte[] noData = Arrays.copyOf(bytes, 0x200);
        assertThatThrownBy(() -> PeFile.parse(ByteBuffer.wrap(noData))).isInstanceOf(PeFormatException.class)
                .hasMessageContaining("past the end");
    }

    @Test
    void badSignaturesAreRejected() {
        assertRejected(patched(0, 2, 0x4d5a), "MZ");
        assertRejected(patched(PeImageBuilder.PE_OFFSET, 4, 0x4e45), "PE signature");
        assertRejected(patched(PeImageBuilder.OPTIONAL_HEADER_OFFSET, 2, 0x10b), "PE32+");
        assertRejected(patched(0x3c, 4, 0x7fff_fff0L), "past the end");
    }

    @Test
    void sizesPastTheEndAreRejected() {
        int section = PeImageBuilder.SECTION_TABLE_OFFSET;
        assertRejected(patched(section + 16, 4, 0x10_0000), "past the end"); // raw size
        assertRejected(patched(section + 20, 4, 0xffff_fff0L), "past the end"); // raw offset
        assertRejected(patched(section + 12, 4, 0x10_0000), "size of image"); // virtual address
        assertRejected(patched(PeImageBuilder.PE_OFFSET + 4 + 2, 2, 500), "past the end"); // section count
        assertRejected(patched(PeImageBuilder.PE_OFFSET + 4 + 16, 2, 16), "too short"); // optional header size
    }

    @Test
    void directoryCountBeyondTheOptionalHeaderIsIgnored() {
        PeFile pe = PeFile.parse(ByteBuffer.wrap(patched(PeImageBuilder.OPTIONAL_HEADER_OFFSET + 108, 4, 1000)));

        assertThat(pe.directory(15)).isEqualTo(PeDataDirectory.ABSENT);
    }

    private static byte[] patched(int offset, int width, long value) {
        byte[] bytes = image();
        for (int i = 0; i < width; i++) {
            bytes[offset + i] = (byte) (value >>> (8 * i));
        }
        return bytes;
    }

    private static void assertRejected(byte[] bytes, String message) {
        assertThatThrownBy(() -> PeFile.parse(ByteBuffer.wrap(bytes))).isInstanceOf(PeFormatException.class)
                .hasMessageContaining(message);
    }
}
