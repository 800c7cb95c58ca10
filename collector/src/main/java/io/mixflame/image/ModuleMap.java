package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import java.io.IOException;
import java.util.List;

/**
 * The memory map of one process as the unwinders and symbolizers need it: which module holds an address and at
 * which bias, whether an address is code, and which region holds a thread's stack. Implementations read the map
 * again, at a bounded rate, when an address falls outside everything known (a library loaded later, code
 * committed later, a new thread's stack). Lookups on the walker's path allocate nothing.
 */
public interface ModuleMap {

    /**
     * A number that changes whenever the set of loaded modules changes: what was cached about an address under an
     * earlier number may name another module's code now.
     */
    int generation();

    /** The process's mappings as last read, in address order. */
    List<MemoryMapping> mappings();

    /** The loaded modules as last read, in address order. */
    List<LoadedModule> modules();

    /** Reads the map now. */
    void refresh() throws IOException;

    /** The module holding an address, or null; reads the map again when the address is in no known mapping. */
    LoadedModule moduleAt(long address);

    /** Whether an address is in executable memory (a module, or anonymous code such as a JIT's). */
    boolean isExecutable(long address);

    /** The readable, writable mapping holding a thread's stack pointer, or null. */
    MemoryMapping stackRegionContaining(long sp);

    /**
     * A thread told its stack's bounds as it started ({@code [low, high)}): {@link #stackRegionContaining} finds its
     * stack pointers there too, where the maps as read have no mapping for them (the thread started after the last
     * read, or has ended and its stack is unmapped by the time its samples are walked). Kept for a bounded number of
     * threads; a map that cannot keep them ignores them.
     */
    default void toldStack(long low, long high) {
    }

    /** The JVM's own library (libjvm.so, jvm.dll) among the modules, or null when it is not mapped. */
    LoadedModule jvmLibrary();

    /**
     * The process's main executable among the modules (the {@code java} launcher, {@code java.exe}), or null when it
     * is not known or not mapped.
     */
    default LoadedModule mainExecutable() {
        return null;
    }
}
