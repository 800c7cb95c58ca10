package io.mixflame.image;

import io.mixflame.process.MemoryMapping;

/**
 * A module map given whole, never read again: a process whose map was captured elsewhere (by a helper process, in
 * a dump), or an imaginary one in a test.
 */
public final class FixedModuleMap extends SnapshotModuleMap {

    /**
     * @param snapshot       the mappings and modules
     * @param jvmLibraryName the file name of the JVM's library among them ({@code libjvm.so}, {@code jvm.dll})
     */
    public FixedModuleMap(ModuleSnapshot snapshot, String jvmLibraryName) {
        super(jvmLibraryName);
        install(snapshot);
    }

    @Override
    public void refresh() {
        // Given whole: there is nothing to read again.
    }

    @Override
    public LoadedModule moduleAt(long address) {
        return snapshot().moduleAt(address);
    }

    @Override
    public boolean isExecutable(long address) {
        return snapshot().executable(address);
    }

    @Override
    public MemoryMapping stackRegionContaining(long sp) {
        return snapshot().stackRegionContaining(sp);
    }
}
