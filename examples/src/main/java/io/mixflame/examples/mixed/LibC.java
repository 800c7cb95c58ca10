package io.mixflame.examples.mixed;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The few C library functions the mixed workload calls through JNA; none of them is C of ours. Sizes are
 * {@code size_t}, 64 bits on both x86-64 Linux and Windows x64 (where a C {@code long}, JNA's NativeLong, is 32).
 */
interface LibC extends Library {
    /** The process's C library: libc, or msvcrt on Windows. */
    LibC INSTANCE = Native.load(Platform.isWindows() ? "msvcrt" : "c", LibC.class);

    /** {@code qsort(3)}: sorts {@code count} elements of {@code size} bytes at {@code base}, calling {@code compare}. */
    void qsort(Pointer base, long count, long size, Comparator compare);

    /** {@code memcmp(3)}. */
    int memcmp(Pointer a, Pointer b, long size);

    /** The comparator qsort calls back: a Java method run from inside libc. */
    interface Comparator extends Callback {
        /** Compares the elements at {@code a} and {@code b}: negative, zero or positive. */
        int invoke(Pointer a, Pointer b);
    }
}
