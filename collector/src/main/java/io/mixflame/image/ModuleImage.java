package io.mixflame.image;

/**
 * One executable file as the profiler uses it (an ELF shared object on Linux, a PE image on Windows): its function
 * symbols, its exported symbols, and its native unwind data, each read on first use and shared by every process that
 * maps the file. A file that cannot be read has none of them; it never fails a walk.
 */
public interface ModuleImage {

    /** The file's name without directories, such as {@code libc.so.6} or {@code jvm.dll}. */
    String name();

    /** The file's path, or a pseudo-name such as {@code [vdso]}. */
    String path();

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
