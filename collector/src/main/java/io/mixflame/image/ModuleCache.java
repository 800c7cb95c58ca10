package io.mixflame.image;

import io.mixflame.image.elf.ElfFile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parsed modules of every process the profiler looks at, keyed by file identity (path, inode, size and
 * modification time), so a library mapped by many processes, or mapped again, is parsed once. Bounded: the least
 * recently used module is dropped beyond the limit.
 */
public final class ModuleCache {
    private static final ModuleCache SHARED = new ModuleCache(512);

    private final int limit;
    private final Map<String, NativeModule> modules;

    public ModuleCache(int limit) {
        this.limit = limit;
        this.modules = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, NativeModule> eldest) {
                return size() > ModuleCache.this.limit;
            }
        };
    }

    /** The cache shared by everything in this JVM. */
    public static ModuleCache shared() {
        return SHARED;
    }

    /** The module of a file on disk. */
    public synchronized NativeModule file(String path, long inode) {
        Path p = Path.of(path);
        long size = p.toFile().length();
        long modified = p.toFile().lastModified();
        String key = path + '\0' + inode + '\0' + size + '\0' + modified;
        return modules.computeIfAbsent(key, k -> new NativeModule(path, () -> ElfFile.open(p)));
    }

    /** A module whose bytes are in a process's memory (the vDSO), keyed by the caller. */
    public synchronized NativeModule memory(String key, String name, NativeModule.ElfSource source) {
        return modules.computeIfAbsent("mem\0" + key, k -> new NativeModule(name, source));
    }

    /** Number of modules held. */
    public synchronized int size() {
        return modules.size();
    }
}
