package io.mixflame.image.pe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.PeImageBuilder.Export;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeExportsTest {
    private static PeFile jvmLike() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x800]);
        b.exports("jvm.dll", List.of(
                Export.of("JVM_CreateJavaVM", 0x1200),
                Export.of("gHotSpotVMStructs", 0x1100),
                Export.forwarded("HeapAlloc", "NTDLL.RtlAllocateHeap"),
                Export.of("JNI_GetCreatedJavaVMs", 0x1400)));
        return PeFile.parse(b.buildBuffer());
    }

    @Test
    void findsExportsByName() {
        PeExports exports = PeExports.read(jvmLike());

        assertThat(exports.rvaOf("gHotSpotVMStructs")).contains(0x1100L);
        assertThat(exports.rvaOf("JNI_GetCreatedJavaVMs")).contains(0x1400L);
        assertThat(exports.rvaOf("missing")).isEmpty();
    }

    @Test
    void skipsForwardedExports() {
        PeExports exports = PeExports.read(jvmLike());

        assertThat(exports.rvaOf("HeapAlloc")).isEmpty();
        assertThat(exports.size()).isEqualTo(3);
    }

    @Test
    void findsTheNearestExportAtOrBelow() {
        PeExports exports = PeExports.read(jvmLike());

        assertThat(exports.nearestAtOrBelow(0x10ff)).isEmpty();
        assertThat(exports.nearestAtOrBelow(0x1100)).contains(new PeExport("gHotSpotVMStructs", 0x1100));
        assertThat(exports.nearestAtOrBelow(0x11ff)).contains(new PeExport("gHotSpotVMStructs", 0x1100));
        assertThat(exports.nearestAtOrBelow(0x1300)).contains(new PeExport("JVM_CreateJavaVM", 0x1200));
        assertThat(exports.nearestAtOrBelow(0x9999)).contains(new PeExport("JNI_GetCreatedJavaVMs", 0x1400));
    }

    @Test
    void anImageWithoutExportsHasNone() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[16]);

        PeExports exports = PeExports.read(PeFile.parse(b.buildBuffer()));

        assertThat(exports.size()).isZero();
        assertThat(exports.nearestAtOrBelow(0x1000)).isEmpty();
    }

    @Test
    void exportTablesOutsideTheImageAreRejected() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[16]);
        b.exports("x.dll", List.of(Export.of("f", 0x1000)));
        byte[] bytes = b.build();
        PeFile good = PeFile.parse(java.nio.ByteBuffer.wrap(bytes));
        long dir = good.directory(PeFile.DIRECTORY_EXPORT).rva();
        int offset = (int) good.rvaToOffset(dir, 40);

        bytes[offset + 24] = (byte) 0xff; // number of names far past the table
        bytes[offset + 25] = (byte) 0xff;
        assertThatThrownBy(() -> PeExports.read(PeFile.parse(java.nio.ByteBuffer.wrap(bytes))))
                .isInstanceOf(PeFormatException.class);

        bytes[offset + 24] = 1;
        bytes[offset + 25] = 0;
        bytes[offset + 32 + 3] = 0x70; // names table RVA in no section
        assertThatThrownBy(() -> PeExports.read(PeFile.parse(java.nio.ByteBuffer.wrap(bytes))))
                .isInstanceOf(PeFormatException.class).hasMessageContaining("no section");
    }
}
