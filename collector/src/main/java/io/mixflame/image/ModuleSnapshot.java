package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import java.util.List;

/**
 * The mappings and modules of a process as read at one moment, searched by address without allocating. Immutable:
 * a map that reads the process again replaces its snapshot whole, so a walker never sees half of an update.
 *
 * <p>Every frame of every sample asks which mapping or module holds an address; the ranges' bounds are kept in
 * primitive arrays beside the lists, so that a search reads a few neighbouring longs rather than one object per probe
 * (a JVM has a thousand mappings, and the walker's data is cold at each wake-up).
 */
public final class ModuleSnapshot {
    /** Nothing read yet. */
    public static final ModuleSnapshot EMPTY = new ModuleSnapshot(List.of(), List.of());

    private final List<MemoryMapping> mappings;
    private final List<LoadedModule> modules;
    private final long[] mappingStarts;
    private final long[] mappingEnds;
    private final long[] moduleStarts;
    private final long[] moduleEnds;

    /**
     * @param mappings every mapping, in address order
     * @param modules  the modules among them, in address order
     */
    public ModuleSnapshot(List<MemoryMapping> mappings, List<LoadedModule> modules) {
        this.mappings = List.copyOf(mappings);
        this.modules = List.copyOf(modules);
        mappingStarts = new long[this.mappings.size()];
        mappingEnds = new long[this.mappings.size()];
        for (int i = 0; i < mappingStarts.length; i++) {
            mappingStarts[i] = this.mappings.get(i).start();
            mappingEnds[i] = this.mappings.get(i).end();
        }
        moduleStarts = new long[this.modules.size()];
        moduleEnds = new long[this.modules.size()];
        for (int i = 0; i < moduleStarts.length; i++) {
            moduleStarts[i] = this.modules.get(i).start();
            moduleEnds[i] = this.modules.get(i).end();
        }
    }

    /** Every mapping, in address order. */
    public List<MemoryMapping> mappings() {
        return mappings;
    }

    /** The modules among them, in address order. */
    public List<LoadedModule> modules() {
        return modules;
    }

    /** The mapping holding an address, or null. */
    public MemoryMapping mappingAt(long address) {
        int i = containing(mappingStarts, mappingEnds, address);
        return i < 0 ? null : mappings.get(i);
    }

    /** The module holding an address, or null. */
    public LoadedModule moduleAt(long address) {
        int i = containing(moduleStarts, moduleEnds, address);
        return i < 0 ? null : modules.get(i);
    }

    /** Binary search of ranges sorted by start, compared unsigned: the index of the one holding the address, or -1. */
    private static int containing(long[] starts, long[] ends, long address) {
        int lo = 0;
        int hi = starts.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(address, starts[mid]) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(address, ends[mid]) >= 0) {
                lo = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** Whether an address is in an executable mapping. */
    public boolean executable(long address) {
        MemoryMapping m = mappingAt(address);
        return m != null && m.executable();
    }

    /** The readable, writable mapping holding {@code sp}, or null. */
    public MemoryMapping stackRegionContaining(long sp) {
        MemoryMapping m = mappingAt(sp);
        return m != null && m.readable() && m.writable() ? m : null;
    }

    /** The first module named {@code fileName} ({@link ModuleImage#name()}), or null. */
    public LoadedModule moduleNamed(String fileName) {
        for (LoadedModule m : modules) {
            if (m.image().name().equals(fileName)) {
                return m;
            }
        }
        return null;
    }

    /** The first module whose file is at {@code path}, or null. */
    public LoadedModule moduleAtPath(String path) {
        for (LoadedModule m : modules) {
            if (m.image().path().equals(path)) {
                return m;
            }
        }
        return null;
    }
}
