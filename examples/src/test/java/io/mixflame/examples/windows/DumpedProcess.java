package io.mixflame.examples.windows;

import io.mixflame.image.FixedModuleMap;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.image.SymbolTable;
import io.mixflame.image.pe.PeFile;
import io.mixflame.image.pe.PeSection;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.windows.PeImageLocator;
import io.mixflame.process.MemoryMapping;
import io.mixflame.testsupport.FakeProcessMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The dumped process as the profiler's production walk sees a Windows process: a module map whose images are chosen
 * by {@link PeImageLocator}, as {@code WindowsModuleMap} chooses them (the files Wine named, read from disk: its builtin
 * DLLs in system32 are PE files too; or the loaded image, where the file is another build), each placed whole at the
 * base the dump gives; and the process's memory. That memory holds what the dump holds (every module's headers as
 * loaded, the whole loaded image of a module whose file is another build) and, for the other modules, their files'
 * sections at their RVAs, which are the loaded bytes except where the loader applied relocations; none of the code
 * shapes the unwinder decodes (epilogs) holds a relocated address. The stacks are not in that memory: each walk gets
 * its stack copy as a capture would.
 */
final class DumpedProcess {
    /** HotSpot's library: absent here, and the walks are of native code only. */
    private static final String JVM_LIBRARY = "jvm.dll";

    private final PeStackDump dump;
    private final ModuleMap modules;
    private final FakeProcessMemory memory = new FakeProcessMemory();

    /** @param windowsToLinux where a module's Windows path lies on this machine */
    DumpedProcess(PeStackDump dump, Function<String, Path> windowsToLinux) throws IOException {
        this.dump = dump;
        for (PeStackDump.Module m : dump.modules()) {
            if (!m.notItsFile()) {
                Path file = windowsToLinux.apply(m.windowsPath());
                load(m.base(), Files.readAllBytes(file));
            }
        }
        dump.memory().forEach(memory::write);
        PeImageLocator locator = new PeImageLocator(0, memory, new ModuleCache(64), io.mixflame.image.windows.DebugSymbolSource.NONE);
        List<MemoryMapping> mappings = new ArrayList<>();
        List<LoadedModule> loaded = new ArrayList<>();
        for (PeStackDump.Module m : dump.modules()) {
            String file = windowsToLinux.apply(m.windowsPath()).toString();
            ModuleImage image = locator.imageOf(file, m.base(), m.size());
            long end = m.base() + m.size();
            mappings.add(new MemoryMapping(m.base(), end, true, false, true, 0, 0, m.windowsPath()));
            loaded.add(new LoadedModule(image, m.base(), end, image.loadBias(m.base(), 0)));
        }
        mappings.sort(Comparator.comparingLong(MemoryMapping::start));
        loaded.sort(Comparator.comparingLong(LoadedModule::start));
        this.modules = new FixedModuleMap(new ModuleSnapshot(mappings, loaded), JVM_LIBRARY);
    }

    /** Lays a file's sections out at their RVAs, zero-filled past their file data, as the loader does. */
    private void load(long base, byte[] bytes) {
        PeFile pe = PeFile.parse(ByteBuffer.wrap(bytes));
        for (PeSection s : pe.sections()) {
            memory.map(base + s.virtualAddress(), s.loadedSize());
            long inFile = Math.min(s.rawSize(), s.loadedSize());
            if (inFile > 0 && s.rawOffset() + inFile <= bytes.length) {
                memory.write(base + s.virtualAddress(),
                        Arrays.copyOfRange(bytes, (int) s.rawOffset(), (int) (s.rawOffset() + inFile)));
            }
        }
    }

    ModuleMap modules() {
        return modules;
    }

    /** The process's memory, without its stacks. */
    FakeProcessMemory memory() {
        return memory;
    }

    /**
     * A pc's name: {@code module!function}, the function being one of the program's own (from the dump's symbols)
     * or the image's symbol holding the pc (its exports, sized by their RUNTIME_FUNCTIONs); {@code module!?} when
     * neither fits, {@code ?} outside every module.
     */
    String name(long pc) {
        LoadedModule module = modules.moduleAt(pc);
        if (module == null) {
            return "?";
        }
        String moduleName = module.image().name().toLowerCase(java.util.Locale.ROOT);
        String own = ownFunction(module, pc);
        if (own != null) {
            return moduleName + "!" + own;
        }
        SymbolTable symbols = module.image().symbols();
        int i = symbols.indexOf(pc - module.bias());
        return moduleName + "!" + (i < 0 ? "?" : symbols.name(i));
    }

    /**
     * The program's function holding a pc: the nearest symbol at or below it, if that symbol starts the pc's
     * RUNTIME_FUNCTION (or the pc has none, as in the hand-written leaf).
     */
    private String ownFunction(LoadedModule module, long pc) {
        String best = null;
        long bestAddress = 0;
        for (Map.Entry<String, Long> s : dump.symbols().entrySet()) {
            long address = s.getValue();
            if (module.contains(address) && address <= pc && (best == null || address > bestAddress)) {
                best = s.getKey();
                bestAddress = address;
            }
        }
        if (best == null || !(module.image().unwindData() instanceof PeUnwindTable table)) {
            return best;
        }
        RuntimeFunction function = table.find(pc - module.bias()).orElse(null);
        return function == null || function.begin() == bestAddress - module.bias() ? best : null;
    }
}
