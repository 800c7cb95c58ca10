package io.mixflame.examples.mixed;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/** The few libc functions the mixed workload calls through JNA; none of them is C of ours. */
interface LibC extends Library {
    /** The process's libc. */
    LibC INSTANCE = Native.load("c", LibC.class);

    /** {@code qsort(3)}: sorts {@code count} elements of {@code size} bytes at {@code base}, calling {@code compare}. */
    void qsort(Pointer base, NativeLong count, NativeLong size, Comparator compare);

    /** {@code memcmp(3)}. */
    int memcmp(Pointer a, Pointer b, NativeLong size);

    /** The comparator qsort calls back: a Java method run from inside libc. */
    interface Comparator extends Callback {
        /** Compares the elements at {@code a} and {@code b}: negative, zero or positive. */
        int invoke(Pointer a, Pointer b);
    }
}
