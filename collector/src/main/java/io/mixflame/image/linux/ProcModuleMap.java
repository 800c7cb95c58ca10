package io.mixflame.image.linux;

import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.index.ModuleIndexStore;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.image.SnapshotModuleMap;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.process.MemoryMapping;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.linux.ProcMaps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The module map of a Linux process, from {@code /proc/PID/maps}: every executable file mapping is an ELF module
 * (a deleted file is read through {@code /proc/PID/map_files}), and the vDSO is read from the process's memory.
 * Read again, at the shared refresh rate, when an address falls outside every known mapping.
 */
public final class ProcModuleMap extends SnapshotModuleMap {
    /** The file name of HotSpot's library on Linux. */
    public static final String JVM_LIBRARY = "libjvm.so";
    private static final long MAX_VDSO = 1 << 20;
    private static final String DELETED = " (deleted)";

    private final long pid;
    private final ProcessMemory memory;
    private final ModuleCache cache;
    /** The target of {@code /proc/PID/exe}, read once; null until then, empty when it cannot be read. */
    private volatile String executablePath;

    /**
     * @param pid    the process
     * @param memory its memory, for the vDSO
     * @param cache  where parsed files are shared with other maps
     */
    public ProcModuleMap(long pid, ProcessMemory memory, ModuleCache cache) {
        super(JVM_LIBRARY);
        this.pid = pid;
        this.memory = memory;
        this.cache = cache;
    }

    /** The process. */
    public long pid() {
        return pid;
    }

    @Override
    public synchronized void refresh() throws IOException {
        List<MemoryMapping> maps = ProcMaps.read(pid);
        List<LoadedModule> list = new ArrayList<>();
        for (MemoryMapping m : maps) {
            if (!m.executable()) {
                continue;
            }
            if (m.isFile() && m.path().endsWith(DELETED)) {
                // The file is gone (JNA deletes its extracted library); the kernel still serves the mapped file.
                String name = m.path().substring(0, m.path().length() - DELETED.length());
                String mapFile = "/proc/" + pid + "/map_files/" + Long.toHexString(m.start()) + "-" + Long.toHexString(m.end());
                list.add(loaded(cache.memory(mapFile, new ImageOpening(name, mapFile, null)), m, m.fileOffset()));
            } else if (m.isFile()) {
                list.add(loaded(cache.file(m.path(), m.inode(), new ImageOpening(m.path(), m.path(), null)), m,
                        m.fileOffset()));
            } else if (m.path().equals("[vdso]")) {
                list.add(loaded(cache.memory(pid + ":" + m.start(), new ImageOpening("[vdso]", null, m)), m, 0));
            }
        }
        install(new ModuleSnapshot(maps, list));
    }

    /**
     * Makes a module's image when the cache has none, and opens its ELF file when the image first needs it: from a
     * path, or the vDSO from the process's memory. A class rather than lambdas, which the JVM spins classes for in
     * the service's start-up.
     */
    private final class ImageOpening implements Supplier<ModuleImage>, ElfModuleImage.ElfSource {
        private final String name;
        private final String file;
        private final MemoryMapping vdso;

        ImageOpening(String name, String file, MemoryMapping vdso) {
            this.name = name;
            this.file = file;
            this.vdso = vdso;
        }

        @Override
        public ModuleImage get() {
            return vdso != null ? new ElfModuleImage(name, this) : new ElfModuleImage(name, this, ModuleIndexStore.shared());
        }

        @Override
        public ElfFile open() throws Exception {
            return vdso != null ? readVdso(vdso) : ElfFile.open(Path.of(file));
        }
    }

    private static LoadedModule loaded(ModuleImage image, MemoryMapping m, long fileOffset) {
        return new LoadedModule(image, m.start(), m.end(), image.loadBias(m.start(), fileOffset));
    }

    private ElfFile readVdso(MemoryMapping m) {
        long size = Math.min(m.end() - m.start(), MAX_VDSO);
        byte[] bytes = new byte[(int) size];
        if (!memory.readFully(m.start(), bytes, 0, bytes.length)) {
            throw new IllegalStateException("vDSO of " + pid + " is not readable");
        }
        return ElfFile.parse(ByteBuffer.wrap(bytes));
    }

    /** The module mapped from the file {@code /proc/PID/exe} links to. */
    @Override
    public LoadedModule mainExecutable() {
        String path = executablePath;
        if (path == null) {
            try {
                path = Files.readSymbolicLink(Path.of("/proc/" + pid + "/exe")).toString();
                path = path.endsWith(DELETED) ? path.substring(0, path.length() - DELETED.length()) : path;
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                // Another user's process, or one that has exited: its main executable stays unknown.
                path = "";
            }
            executablePath = path;
        }
        if (snapshot().modules().isEmpty()) {
            refreshIfStale();
        }
        return path.isEmpty() ? null : snapshot().moduleAtPath(path);
    }

    @Override
    public MemoryMapping stackRegionContaining(long sp) {
        MemoryMapping hit = snapshot().stackRegionContaining(sp);
        if (hit == null) {
            // Its thread told it as it started: no read of the maps needed.
            hit = toldStackContaining(sp);
        }
        if (hit != null) {
            return hit;
        }
        // A thread started after the last read has its stack in a mapping not seen yet; one that has ended since its
        // sample, in a mapping gone.
        refreshIfStale();
        hit = snapshot().stackRegionContaining(sp);
        return hit != null ? hit : recentlyUnmappedStack(sp);
    }

    @Override
    public LoadedModule moduleAt(long address) {
        ModuleSnapshot s = snapshot();
        LoadedModule hit = s.moduleAt(address);
        if (hit != null || s.mappingAt(address) != null) {
            // An address in a mapping without a module (JIT code, the heap) is not a new library: no re-read.
            return hit;
        }
        refreshIfStale();
        return snapshot().moduleAt(address);
    }

    @Override
    public boolean isExecutable(long address) {
        // Asked for every frame of every walk: one search of the mappings, nothing allocated, in the usual case.
        MemoryMapping mapping = snapshot().mappingAt(address);
        if (mapping != null) {
            if (mapping.executable()) {
                return true;
            }
            if (mapping.readable() || mapping.writable()) {
                // Heap, stacks, data: a walk through garbage lands there often, and they do not become code.
                return false;
            }
        }
        // A library loaded later, or memory made executable after the maps were read (a JIT commits more of its
        // code cache, reserved without access until then): read again, at most at the refresh rate — the shortest
        // for memory reserved without access, where a JIT's new code appears.
        if (mapping != null) {
            refreshSoon();
        } else {
            refreshIfStale();
        }
        return snapshot().executable(address);
    }
}
