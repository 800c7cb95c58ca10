package io.mixflame.image;

/**
 * One executable file as the profiler uses it (an ELF shared object on Linux, a PE image on Windows): its function
 * symbols, its exported symbols, and its native unwind data, each read on first use and shared by every process that
 * maps the file. A file that cannot be read has none of them; it never fails a walk.
 */
public interface ModuleImage {

    /**
     * The module's name in profiles and frames: its file's name without directories, such as {@code libc.so.6} or
     * {@code jvm.dll}; for a temporary copy whose file name has a random part, the name that stays the same from one
     * run to the next ({@link StableModuleName}), which may read the image.
     */
    String name();

    /** The file's path, or a pseudo-name such as {@code [vdso]}. */
    String path();

    /**
     * The image's build id, read on first use: an ELF {@code NT_GNU_BUILD_ID} note in lowercase hexadecimal, a PE
     * image's CodeView GUID and age as symbol servers spell them; empty when it has none or cannot be read.
     */
    default String buildId() {
        return "";
    }

    /** The function symbols, at link-time addresses, read on first use. */
    SymbolTable symbols();

    /** The exported symbols (data included), at link-time addresses. */
    ExportedSymbols exports();

    /** The native unwind data (call frame information, {@code .pdata}), read on first use. */
    UnwindData unwindData();

    /**
     * What to add to the file's link-time addresses to get the addresses in the process, for a mapping of the file
     * at {@code mappingStart} from {@code fileOffset}.
     */
    long loadBias(long mappingStart, long fileOffset);
}
