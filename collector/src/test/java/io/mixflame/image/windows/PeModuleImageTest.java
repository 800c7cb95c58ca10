package io.mixflame.image.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.SymbolTable;
import io.mixflame.image.UnwindData;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.PeImageBuilder.Export;
import io.mixflame.testsupport.PeImageBuilder.Function;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PE module image names code by its exports, each only as far as its function reaches: a DLL exports few of its
 * functions, and the code of the others must not take the name of the export below it.
 */
class PeModuleImageTest {
    private static final byte[] EMPTY_UNWIND_INFO = {1, 0, 0, 0};

    @TempDir
    Path dir;

    private PeModuleImage image() throws Exception {
        return image(DebugSymbolSource.NONE);
    }

    private PeModuleImage image(DebugSymbolSource debug) throws Exception {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x800]);
        b.exports("lib.dll", List.of(Export.of("Exported", 0x1100), Export.of("Leaf", 0x1300),
                Export.of("gHotSpotVMStructs", 0x1600)));
        b.unwindTables(List.of(new Function(0x1100, 0x1180, EMPTY_UNWIND_INFO),
                new Function(0x1400, 0x1480, EMPTY_UNWIND_INFO)));
        Path file = dir.resolve("lib.dll");
        Files.write(file, b.build());
        return new PeModuleImage(file.toString(), debug);
    }

    @Test
    void anExportCoversItsFunctionAndNoMore() throws Exception {
        SymbolTable symbols = image().symbols();
        assertThat(symbols.name(symbols.indexOf(0x1100))).isEqualTo("Exported");
        assertThat(symbols.name(symbols.indexOf(0x117f))).isEqualTo("Exported");
        assertThat(symbols.indexOf(0x1180)).as("code after the exported function").isEqualTo(-1);
    }

    @Test
    void aLeafExportReachesToTheNextFunction() throws Exception {
        SymbolTable symbols = image().symbols();
        assertThat(symbols.name(symbols.indexOf(0x1314))).isEqualTo("Leaf");
        assertThat(symbols.indexOf(0x1400)).as("an unexported function after the leaf").isEqualTo(-1);
    }

    @Test
    void exportsUnwindDataAndBiasAreThoseOfThePeFile() throws Exception {
        PeModuleImage image = image();
        assertThat(image.name()).isEqualTo("lib.dll");
        assertThat(image.exports().withPrefix("gHotSpot")).containsExactly(java.util.Map.entry("gHotSpotVMStructs", 0x1600L));
        assertThat(image.unwindData()).isInstanceOf(PeUnwindTable.class);
        assertThat(image.loadBias(0x7ff0_0000_0000L, 0)).as("RVAs are biased by the module's base")
                .isEqualTo(0x7ff0_0000_0000L);
    }

    @Test
    void aFileThatCannotBeReadHasNothing() {
        PeModuleImage gone = new PeModuleImage(dir.resolve("gone.dll").toString());
        assertThat(gone.symbols().size()).isZero();
        assertThat(gone.exports().withPrefix("")).isEmpty();
        assertThat(gone.unwindData()).isSameAs(UnwindData.NONE);
    }

    @Test
    void debugInformationNamesWhatIsNotExportedAndWinsWhereBothNameAnAddress() throws Exception {
        String[] askedFor = new String[1];
        PeModuleImage image = image((path, sizeOfImage, sink) -> {
            askedFor[0] = path;
            assertThat(sizeOfImage).isPositive();
            sink.function(0x1400, 0, "static_helper");
            sink.function(0x1100, 0x80, "Exported(int)");
            sink.function(0x1500, 0x10, "sized_by_pdb");
        });

        SymbolTable symbols = image.symbols();

        assertThat(askedFor[0]).endsWith("lib.dll");
        assertThat(symbols.name(symbols.indexOf(0x1440))).as("unexported, sized by its .pdata function")
                .isEqualTo("static_helper");
        assertThat(symbols.indexOf(0x1480)).as("past that function").isEqualTo(-1);
        assertThat(symbols.name(symbols.indexOf(0x1100))).as("the debug name of an exported function")
                .isEqualTo("Exported(int)");
        assertThat(symbols.name(symbols.indexOf(0x150f))).isEqualTo("sized_by_pdb");
        assertThat(symbols.indexOf(0x1510)).isEqualTo(-1);
        assertThat(symbols.name(symbols.indexOf(0x1314))).as("exports still name the rest").isEqualTo("Leaf");
    }

    @Test
    void aFailingDebugSourceLeavesTheExports() throws Exception {
        SymbolTable symbols = image((path, size, sink) -> {
            throw new IllegalStateException("dbghelp fell over");
        }).symbols();
        assertThat(symbols.name(symbols.indexOf(0x1100))).isEqualTo("Exported");
    }
}
