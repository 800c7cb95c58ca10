package io.mixflame.image.windows;

/**
 * Where the functions a PE image does not export get their names: its debug information (a PDB), when there is
 * any to find. Asked once per image, when its symbols are first needed.
 */
@FunctionalInterface
public interface DebugSymbolSource {
    /** Finds nothing: exports alone name the image. */
    DebugSymbolSource NONE = (path, sizeOfImage, sink) -> { };

    /** Receives one function: its RVA, its size in bytes (0 when unknown) and its name. */
    @FunctionalInterface
    interface Sink {
        void function(long rva, long size, String name);
    }

    /**
     * Hands every function the debug information of the image at {@code path} names to {@code sink}; nothing when
     * there is none. Never throws.
     */
    void functionsOf(String path, long sizeOfImage, Sink sink);
}
