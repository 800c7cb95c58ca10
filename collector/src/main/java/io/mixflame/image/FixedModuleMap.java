package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import java.util.List;

/**
 * A module map given whole, never read again: a process whose map was captured elsewhere (by a helper process, in
 * a dump), or an imaginary one in a test.
 */
public final class FixedModuleMap implements ModuleMap {
    private final ModuleSnapshot snapshot;
    private final String jvmLibraryName;

    /**
     * @param snapshot       the mappings and modules
     * @param jvmLibraryName the file name of the JVM's library among them ({@code libjvm.so}, {@code jvm.dll})
     */
    public FixedModuleMap(ModuleSnapshot snapshot, String jvmLibraryName) {
        this.snapshot = snapshot;
        this.jvmLibraryName = jvmLibraryName;
    }

    @Override
    public int generation() {
        return 0;
    }

    @Override
    public List<MemoryMapping> mappings() {
        return snapshot.mappings();
    }

    @Override
    public List<LoadedModule> modules() {
        return snapshot.modules();
    }

    @Override
    public void refresh() {
        // Given whole: there is nothing to read again.
    }

    @Override
    public LoadedModule moduleAt(long address) {
        return snapshot.moduleAt(address);
    }

    @Override
    public boolean isExecutable(long address) {
        return snapshot.executable(address);
    }

    @Override
    public MemoryMapping stackRegionContaining(long sp) {
        return snapshot.stackRegionContaining(sp);
    }

    @Override
    public LoadedModule jvmLibrary() {
        return snapshot.moduleNamed(jvmLibraryName);
    }
}
