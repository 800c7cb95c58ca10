package io.mixflame.image.pe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.image.windows.PeModuleImage;
import io.mixflame.testsupport.PeImageBuilder;
import org.junit.jupiter.api.Test;

/** A PE image's build id: its CodeView record's GUID and age, spelled as symbol servers key PDBs. */
class PeCodeViewIdTest {
    /** The GUID {3F2B8C1E-9D4A-4E7B-A1C2-0B9E8D7F6A51} as an image stores it (its first three fields little-endian). */
    private static final byte[] GUID = {0x1e, (byte) 0x8c, 0x2b, 0x3f, 0x4a, (byte) 0x9d, 0x7b, 0x4e,
            (byte) 0xa1, (byte) 0xc2, 0x0b, (byte) 0x9e, (byte) 0x8d, 0x7f, 0x6a, 0x51};

    private static PeImageBuilder withCodeView(long age) {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x100]);
        return b.codeView(GUID, age, "D:\\build\\libzstd-jni.pdb");
    }

    @Test
    void theGuidAndAgeAreSpelledAsSymbolServersKeyThem() {
        assertThat(PeCodeViewId.read(PeFile.parse(withCodeView(1).buildBuffer())))
                .contains("3F2B8C1E9D4A4E7BA1C20B9E8D7F6A511");
        assertThat(PeCodeViewId.read(PeFile.parse(withCodeView(0x2a).buildBuffer())))
                .contains("3F2B8C1E9D4A4E7BA1C20B9E8D7F6A512A");
    }

    @Test
    void anImageWithoutADebugDirectoryHasNone() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x100]);

        assertThat(PeCodeViewId.read(PeFile.parse(b.buildBuffer()))).isEmpty();
    }

    @Test
    void aRecordOutsideTheImageIsRejectedAndCostsTheModuleOnlyItsBuildId() {
        byte[] bytes = withCodeView(1).build();
        PeFile good = PeFile.parse(java.nio.ByteBuffer.wrap(bytes));
        int entry = (int) good.rvaToOffset(good.directory(PeFile.DIRECTORY_DEBUG).rva(), 28);
        bytes[entry + 23] = 0x70; // the record's RVA in no section

        assertThatThrownBy(() -> PeCodeViewId.read(PeFile.parse(java.nio.ByteBuffer.wrap(bytes))))
                .isInstanceOf(PeFormatException.class);
        PeModuleImage image = new PeModuleImage("C:\\x\\lib.dll", () -> PeFile.parse(java.nio.ByteBuffer.wrap(bytes)));
        assertThat(image.buildId()).isEmpty();
        assertThat(new PeModuleImage("C:\\x\\lib.dll", () -> PeFile.parse(withCodeView(1).buildBuffer())).buildId())
                .isEqualTo("3F2B8C1E9D4A4E7BA1C20B9E8D7F6A511");
    }
}
