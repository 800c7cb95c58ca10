package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import io.mixflame.process.MemoryMaps;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.StackMapping;
import io.mixflame.image.elf.ElfFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The executable mappings of one process and the module behind each: which module holds an address, at which
 * bias. Read from {@code /proc/PID/maps}; read again when an address falls outside every known mapping (a library
 * loaded later), at most once per {@value #REFRESH_NANOS} ns so that walks through garbage do not re-read the file
 * at every step. The vDSO is read from the process's memory.
 */
public final class ProcessModules {
    private static final long REFRESH_NANOS = 50_000_000L;
    private static final long MAX_VDSO = 1 << 20;
    private static final String DELETED = " (deleted)";

    private final long pid;
    private final ProcessMemory memory;
    private final ModuleCache cache;
    private volatile List<LoadedModule> loaded = List.of();
    private volatile List<MemoryMapping> mappings = List.of();
    private long lastRefresh;
    private volatile int generation;
    /** Set for a module map given whole, which {@link #refresh()} leaves as it is. */
    private final boolean fixed;

    public ProcessModules(long pid, ProcessMemory memory, ModuleCache cache) {
        this.pid = pid;
        this.memory = memory;
        this.cache = cache;
        this.fixed = false;
    }

    private ProcessModules(List<MemoryMapping> mappings, List<LoadedModule> loaded) {
        this.pid = -1;
        this.memory = null;
        this.cache = null;
        this.fixed = true;
        this.mappings = List.copyOf(mappings);
        this.loaded = List.copyOf(loaded);
    }

    /**
     * A module map that never reads {@code /proc}: for tests that walk stacks of an imaginary process.
     *
     * @param mappings the process's mappings, in address order
     * @param loaded   the modules among them, in address order
     */
    static ProcessModules fixed(List<MemoryMapping> mappings, List<LoadedModule> loaded) {
        return new ProcessModules(mappings, loaded);
    }

    /** The process. */
    public long pid() {
        return pid;
    }

    /**
     * A number that changes whenever the set of loaded modules changes (a library loaded or unloaded): what was
     * cached about an address under an earlier number may name another module's code now.
     */
    public int generation() {
        return generation;
    }

    /** The mappings as last read. */
    public List<MemoryMapping> mappings() {
        return mappings;
    }

    /** Reads the maps now. */
    public synchronized void refresh() throws IOException {
        if (fixed) {
            return;
        }
        List<MemoryMapping> maps = MemoryMaps.read(pid);
        List<LoadedModule> list = new ArrayList<>();
        for (MemoryMapping m : maps) {
            if (!m.executable()) {
                continue;
            }
            if (m.isFile() && m.path().endsWith(DELETED)) {
                // The file is gone (JNA deletes its extracted library); the kernel still serves the mapped file.
                String name = m.path().substring(0, m.path().length() - DELETED.length());
                String mapFile = "/proc/" + pid + "/map_files/" + Long.toHexString(m.start()) + "-" + Long.toHexString(m.end());
                NativeModule module = cache.memory(mapFile, name, () -> ElfFile.open(java.nio.file.Path.of(mapFile)));
                list.add(new LoadedModule(module, m.start(), m.end(), module.loadBias(m.start(), m.fileOffset())));
            } else if (m.isFile()) {
                NativeModule module = cache.file(m.path(), m.inode());
                list.add(new LoadedModule(module, m.start(), m.end(), module.loadBias(m.start(), m.fileOffset())));
            } else if (m.path().equals("[vdso]")) {
                NativeModule vdso = cache.memory(pid + ":" + m.start(), "[vdso]", () -> readVdso(m));
                list.add(new LoadedModule(vdso, m.start(), m.end(), vdso.loadBias(m.start(), 0)));
            }
        }
        mappings = List.copyOf(maps);
        List<LoadedModule> before = loaded;
        loaded = List.copyOf(list);
        if (!loaded.equals(before)) {
            generation++;
        }
        lastRefresh = System.nanoTime();
    }

    private ElfFile readVdso(MemoryMapping m) {
        long size = Math.min(m.end() - m.start(), MAX_VDSO);
        byte[] bytes = new byte[(int) size];
        if (!memory.readFully(m.start(), bytes, 0, bytes.length)) {
            throw new IllegalStateException("vDSO of " + pid + " is not readable");
        }
        return ElfFile.parse(ByteBuffer.wrap(bytes));
    }

    /**
     * The readable, writable mapping holding a thread's stack pointer; the maps are read again (at the refresh rate)
     * when none does, since a thread started after the last read has its stack in a mapping not seen yet.
     */
    public Optional<MemoryMapping> stackMappingContaining(long sp) {
        Optional<MemoryMapping> hit = StackMapping.containing(mappings, sp);
        if (hit.isPresent()) {
            return hit;
        }
        synchronized (this) {
            if (System.nanoTime() - lastRefresh >= REFRESH_NANOS) {
                try {
                    refresh();
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
        }
        return StackMapping.containing(mappings, sp);
    }

    /** The module holding an address, reading the maps again if none does and the last read is not recent. */
    public Optional<LoadedModule> find(long address) {
        Optional<LoadedModule> hit = lookup(loaded, address);
        if (hit.isPresent() || inKnownMapping(address)) {
            // An address in a mapping without a module (JIT code, the heap) is not a new library: no re-read.
            return hit;
        }
        synchronized (this) {
            if (System.nanoTime() - lastRefresh < REFRESH_NANOS) {
                return lookup(loaded, address);
            }
            try {
                refresh();
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        return lookup(loaded, address);
    }

    private boolean inKnownMapping(long address) {
        return mappingAt(address) != null;
    }

    /** Whether an address is in executable memory of the process (a module, or anonymous code such as a JIT's). */
    public boolean isExecutable(long address) {
        // Asked for every frame of every walk: one search of the mappings, nothing allocated, in the usual case.
        MemoryMapping mapping = mappingAt(address);
        if (mapping != null && mapping.executable()) {
            return true;
        }
        if (mapping == null && find(address).isPresent()) {
            return true;
        }
        mapping = mappingAt(address);
        if (mapping != null && mapping.executable()) {
            return true;
        }
        if (mapping != null && (mapping.readable() || mapping.writable())) {
            // Heap, stacks, data: a walk through garbage lands there often, and they do not become code.
            return false;
        }
        // Memory becomes executable after the maps were read (a JIT commits more of its code cache, reserved
        // without access until then): read again, at most at the refresh rate.
        synchronized (this) {
            if (System.nanoTime() - lastRefresh >= REFRESH_NANOS) {
                try {
                    refresh();
                } catch (IOException e) {
                    return false;
                }
            }
        }
        return executableMapping(address);
    }

    private boolean executableMapping(long address) {
        MemoryMapping m = mappingAt(address);
        return m != null && m.executable();
    }

    /** The mapping holding an address, or null. */
    private MemoryMapping mappingAt(long address) {
        List<MemoryMapping> maps = mappings;
        int lo = 0;
        int hi = maps.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            MemoryMapping m = maps.get(mid);
            if (Long.compareUnsigned(address, m.start()) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(address, m.end()) >= 0) {
                lo = mid + 1;
            } else {
                return m;
            }
        }
        return null;
    }

    private static Optional<LoadedModule> lookup(List<LoadedModule> list, long address) {
        int lo = 0;
        int hi = list.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            LoadedModule m = list.get(mid);
            if (Long.compareUnsigned(address, m.start()) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(address, m.end()) >= 0) {
                lo = mid + 1;
            } else {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
