package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The mappings and modules of a process as read at one moment, searched by address without allocating. Immutable:
 * a map that reads the process again replaces its snapshot whole, so a walker never sees half of an update.
 *
 * @param mappings every mapping, in address order
 * @param modules  the modules among them, in address order
 */
public record ModuleSnapshot(List<MemoryMapping> mappings, List<LoadedModule> modules) {
    /** Nothing read yet. */
    public static final ModuleSnapshot EMPTY = new ModuleSnapshot(List.of(), List.of());

    public ModuleSnapshot {
        mappings = List.copyOf(mappings);
        modules = List.copyOf(modules);
    }

    /** The mapping holding an address, or null. */
    public MemoryMapping mappingAt(long address) {
        return containing(mappings, address, MemoryMapping::start, MemoryMapping::end);
    }

    /** The module holding an address, or null. */
    public LoadedModule moduleAt(long address) {
        return containing(modules, address, LoadedModule::start, LoadedModule::end);
    }

    /** Binary search of ranges sorted by start, compared unsigned; the accessors are constants, nothing allocated. */
    private static <T> T containing(List<T> ranges, long address, ToLongFunction<T> start, ToLongFunction<T> end) {
        int lo = 0;
        int hi = ranges.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            T r = ranges.get(mid);
            if (Long.compareUnsigned(address, start.applyAsLong(r)) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(address, end.applyAsLong(r)) >= 0) {
                lo = mid + 1;
            } else {
                return r;
            }
        }
        return null;
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

    /** The first module whose file is named {@code fileName}, or null. */
    public LoadedModule moduleNamed(String fileName) {
        for (LoadedModule m : modules) {
            if (m.image().name().equals(fileName)) {
                return m;
            }
        }
        return null;
    }
}
