package io.mixflame.image.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.pe.PeExports;
import io.mixflame.image.pe.PeFile;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.PeImageBuilder.Export;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How a Windows module is named in frames: by its file, or for a temporary copy by its export directory's name. */
class PeModuleNameTest {

    private static PeFile exporting(String dllName) {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x100]);
        b.exports(dllName, List.of(Export.of("Java_com_github_luben_zstd_Zstd_compress", 0x1010)));
        return PeFile.parse(b.buildBuffer());
    }

    @Test
    void theExportDirectoryNamesTheDll() {
        assertThat(PeExports.read(exporting("libzstd-jni-1.5.7-2.dll")).ownName()).contains("libzstd-jni-1.5.7-2.dll");
    }

    @Test
    void anImageWithoutExportsNamesItselfNothing() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[16]);

        assertThat(PeExports.read(PeFile.parse(b.buildBuffer())).ownName()).isEmpty();
    }

    @Test
    void aTemporaryCopyIsNamedByItsExportDirectory() {
        PeModuleImage image = new PeModuleImage("C:\\Temp\\libzstd-jni-1.5.7-286761275270315441095.dll",
                () -> exporting("libzstd-jni-1.5.7-2.dll"));

        assertThat(image.name()).isEqualTo("libzstd-jni-1.5.7-2.dll");
        assertThat(image.path()).isEqualTo("C:\\Temp\\libzstd-jni-1.5.7-286761275270315441095.dll");
    }

    @Test
    void aTemporaryCopyWithoutExportsLosesItsRandomPart() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[16]);
        PeModuleImage image = new PeModuleImage("C:\\Temp\\jna5082641093847562310.dll",
                () -> PeFile.parse(b.buildBuffer()));

        assertThat(image.name()).isEqualTo("jna.dll");
    }

    @Test
    void anOrdinaryDllKeepsItsFileNameAndIsNotOpenedForIt() {
        AtomicInteger opened = new AtomicInteger();
        PeModuleImage image = new PeModuleImage("C:\\jre\\bin\\server\\jvm.dll", () -> {
            opened.incrementAndGet();
            return exporting("other.dll");
        });

        assertThat(image.name()).isEqualTo("jvm.dll");
        assertThat(opened).hasValue(0);
    }
}
