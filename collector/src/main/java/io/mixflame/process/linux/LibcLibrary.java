package io.mixflame.process.linux;

import com.sun.jna.NativeLibrary;

/**
 * The C library, for JNA's direct mappings, opened by its soname. Asked for plain {@code "c"}, JNA first tries
 * {@code libc.so}, which on most distributions is a linker script that {@code dlopen} refuses, and then lists every
 * file of each library directory (over two thousand on a Debian host) to pick the highest {@code libc.so.N}: string
 * work per file that the service's JIT compiled, with C2, in its start-up. glibc's soname is
 * {@code libc.so.6} on every architecture the profiler runs on; another C library falls back to JNA's search.
 */
public final class LibcLibrary {
    private static final String GLIBC = "libc.so.6";
    private static volatile NativeLibrary instance;

    private LibcLibrary() {
    }

    /** The C library, opened once. */
    public static NativeLibrary get() {
        NativeLibrary library = instance;
        if (library == null) {
            try {
                library = NativeLibrary.getInstance(GLIBC);
            } catch (UnsatisfiedLinkError e) {
                library = NativeLibrary.getInstance("c");
            }
            instance = library;
        }
        return library;
    }
}
