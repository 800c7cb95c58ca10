package io.mixflame.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.FixedModuleMap;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.image.linux.ElfModuleImage;
import io.mixflame.profile.NativeModule;
import io.mixflame.testsupport.ElfImageBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Frames in a JNI library loaded from a temporary copy carry the module's stable name, in their module and in the
 * name of code without a symbol, and the modules touched keep the copy's full path.
 */
class TemporaryLibraryFrameNameTest {
    private static final long BASE = 0x7f00_0000_0000L;
    private static final String COPY = "/tmp/liblz4-java-5871604928736140391.so";

    private static ElfModuleImage copy() {
        return new ElfModuleImage(COPY, () -> new ElfImageBuilder().section(".text", 0x1000, new byte[0x100]).build());
    }

    @Test
    void framesAreNamedWithTheModulesStableName() {
        NativeSymbolizer symbolizer = new NativeSymbolizer(new FixedModuleMap(new ModuleSnapshot(List.of(),
                List.of(new LoadedModule(copy(), BASE, BASE + 0x10000, BASE))), "libjvm.so"));

        SymbolizedFrame frame = symbolizer.symbolize(BASE + 0x1010, false);

        assertThat(frame.module()).isEqualTo("liblz4-java.so");
        assertThat(frame.displayName()).isEqualTo("[liblz4-java.so]");
        assertThat(frame.moduleOffset()).isEqualTo(0x1010);
    }

    @Test
    void touchedModulesHaveTheirPathsTheMainExecutableFirstAndEachOnce() {
        ModuleImage java = new ElfModuleImage("/usr/lib/jvm/jdk-17/bin/java", () -> {
            throw new java.io.IOException("not read in this test");
        });
        LoadedModule main = new LoadedModule(java, 0x1000, 0x2000, 0x1000);
        LoadedModule lz4 = new LoadedModule(copy(), BASE, BASE + 0x10000, BASE);
        TouchedModules touched = new TouchedModules();

        assertThat(touched.list(main)).containsExactly(new NativeModule("java", "/usr/lib/jvm/jdk-17/bin/java", ""));
        touched.add(lz4);
        touched.add(null);
        touched.add(lz4);
        touched.add(main);

        assertThat(touched.list(main)).containsExactly(new NativeModule("java", "/usr/lib/jvm/jdk-17/bin/java", ""),
                new NativeModule("liblz4-java.so", COPY, ""));
        assertThat(touched.list(null)).containsExactly(new NativeModule("liblz4-java.so", COPY, ""),
                new NativeModule("java", "/usr/lib/jvm/jdk-17/bin/java", ""));
    }
}
