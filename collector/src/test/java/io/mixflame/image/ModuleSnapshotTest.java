package io.mixflame.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.linux.ElfModuleImage;
import io.mixflame.process.MemoryMapping;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lookups by address in a module map's snapshot: boundaries, gaps, addresses past the sign bit. */
class ModuleSnapshotTest {
    private static final ModuleImage LIBA = new ElfModuleImage("/lib/liba.so", () -> {
        throw new IllegalStateException("never opened by a lookup");
    });
    private static final ModuleImage JVM = new ElfModuleImage("/jdk/lib/server/libjvm.so", () -> {
        throw new IllegalStateException("never opened by a lookup");
    });

    private final ModuleSnapshot snapshot = new ModuleSnapshot(List.of(
            new MemoryMapping(0x1000, 0x2000, true, false, true, 0, 1, "/lib/liba.so"),
            new MemoryMapping(0x2000, 0x3000, true, true, false, 0, 0, "[stack]"),
            new MemoryMapping(0x5000, 0x6000, true, false, true, 0, 2, "/jdk/lib/server/libjvm.so"),
            new MemoryMapping(0x8000_0000_0000_1000L, 0x8000_0000_0000_2000L, true, false, false, 0, 0, "")),
            List.of(new LoadedModule(LIBA, 0x1000, 0x2000, 0x1000), new LoadedModule(JVM, 0x5000, 0x6000, 0x4000)));

    @Test
    void aModuleIsFoundFromItsFirstToItsLastAddressAndNotBeyond() {
        assertThat(snapshot.moduleAt(0x0fff)).isNull();
        assertThat(snapshot.moduleAt(0x1000).image()).isSameAs(LIBA);
        assertThat(snapshot.moduleAt(0x1fff).image()).isSameAs(LIBA);
        assertThat(snapshot.moduleAt(0x2000)).isNull();
        assertThat(snapshot.moduleAt(0x4000)).isNull();
        assertThat(snapshot.moduleAt(0x5800).image()).isSameAs(JVM);
        assertThat(snapshot.moduleAt(-1L)).isNull();
    }

    @Test
    void onlyReadableWritableMappingsHoldStacks() {
        assertThat(snapshot.stackRegionContaining(0x2800).start()).isEqualTo(0x2000);
        assertThat(snapshot.stackRegionContaining(0x1800)).as("code").isNull();
        assertThat(snapshot.stackRegionContaining(0x4000)).as("a gap").isNull();
    }

    @Test
    void addressesAboveTheSignBitCompareUnsigned() {
        assertThat(snapshot.mappingAt(0x8000_0000_0000_1800L)).isNotNull();
        assertThat(snapshot.executable(0x8000_0000_0000_1800L)).isFalse();
        assertThat(snapshot.executable(0x1800)).isTrue();
    }

    @Test
    void theJvmLibraryIsFoundByItsFileName() {
        assertThat(new FixedModuleMap(snapshot, "libjvm.so").jvmLibrary().start()).isEqualTo(0x5000);
        assertThat(new FixedModuleMap(snapshot, "jvm.dll").jvmLibrary()).isNull();
    }

    @Test
    void anUnreadableImageExportsNothingAndHasNoUnwindData() {
        ModuleImage broken = new ElfModuleImage("/nowhere/libgone.so", () -> ElfFile.open(java.nio.file.Path.of("/nowhere/libgone.so")));
        assertThat(broken.exports().withPrefix("")).isEmpty();
        assertThat(broken.symbols().size()).isZero();
        assertThat(broken.name()).isEqualTo("libgone.so");
    }
}
