package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.linux.ElfModuleImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The module map of an imaginary process, for walks over a fake memory: the mappings a test names (stacks, data,
 * anonymous code, modules with a parsed ELF image) and nothing read from {@code /proc}.
 */
public final class SyntheticModuleMap {
    private final List<MemoryMapping> mappings = new ArrayList<>();
    private final List<LoadedModule> modules = new ArrayList<>();

    /** A readable, writable mapping such as a thread's stack. */
    public SyntheticModuleMap readWrite(long start, long end) {
        mappings.add(new MemoryMapping(start, end, true, true, false, 0, 0, ""));
        return this;
    }

    /** Executable memory without a file, such as a JIT's code. */
    public SyntheticModuleMap anonymousCode(long start, long end) {
        mappings.add(new MemoryMapping(start, end, true, false, true, 0, 0, ""));
        return this;
    }

    /** An executable mapping of a module whose link-time addresses are {@code bias} below the process's. */
    public SyntheticModuleMap module(String name, long start, long end, long bias, ElfFile elf) {
        mappings.add(new MemoryMapping(start, end, true, false, true, 0, 1, "/synthetic/" + name));
        modules.add(new LoadedModule(new ElfModuleImage(name, () -> elf), start, end, bias));
        return this;
    }

    /** The map; it never changes. */
    public ModuleMap build() {
        List<MemoryMapping> sortedMappings = new ArrayList<>(mappings);
        sortedMappings.sort(Comparator.comparingLong(MemoryMapping::start));
        List<LoadedModule> sortedModules = new ArrayList<>(modules);
        sortedModules.sort(Comparator.comparingLong(LoadedModule::start));
        return new FixedModuleMap(new ModuleSnapshot(sortedMappings, sortedModules), "libjvm.so");
    }
}
