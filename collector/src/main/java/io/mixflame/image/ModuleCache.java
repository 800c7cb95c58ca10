package io.mixflame.image;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The module images of every process the profiler looks at, keyed by file identity (path, file id, size and
 * modification time), so a library mapped by many processes, or mapped again, is read once. Bounded: the least
 * recently used image is dropped beyond the limit. Images read their contents lazily, so holding one is cheap.
 */
public final class ModuleCache {
    private static final ModuleCache SHARED = new ModuleCache(512);

    private final int limit;
    private final Map<String, ModuleImage> modules;

    /** A cache of at most {@code limit} images. */
    public ModuleCache(int limit) {
        this.limit = limit;
        this.modules = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ModuleImage> eldest) {
                return size() > ModuleCache.this.limit;
            }
        };
    }

    /** The cache shared by everything in this JVM. */
    public static ModuleCache shared() {
        return SHARED;
    }

    /**
     * The image of a file on disk, made by {@code open} when this file (by path, {@code fileId}, size and
     * modification time) has none yet.
     */
    public synchronized ModuleImage file(String path, long fileId, Supplier<ModuleImage> open) {
        File f = new File(path);
        String key = path + '\0' + fileId + '\0' + f.length() + '\0' + f.lastModified();
        return kept(key, open);
    }

    /** The image kept under {@code key}, made when there is none (not computeIfAbsent: its lambda is spun). */
    private ModuleImage kept(String key, Supplier<ModuleImage> open) {
        ModuleImage image = modules.get(key);
        if (image == null) {
            image = open.get();
            modules.put(key, image);
        }
        return image;
    }

    /** An image whose bytes are not a plain file (the vDSO, a deleted file), keyed by the caller. */
    public synchronized ModuleImage memory(String key, Supplier<ModuleImage> open) {
        return kept("mem\0" + key, open);
    }

    /** Number of images held. */
    public synchronized int size() {
        return modules.size();
    }
}
