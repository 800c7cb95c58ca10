package io.mixflame.examples.mixed;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.Random;

/**
 * Sorts ints in native memory with libc's {@code qsort}, whose comparator is a Java method that libc calls back
 * through JNA: stacks go Java, JNA and libffi, libc, the JVM's call-in path, and Java again.
 */
final class QsortPhase {
    private static final int ELEMENTS = 2048;

    private final Memory array = new Memory((long) ELEMENTS * Integer.BYTES);
    private final Random random = new Random(7);
    /** Held in a field: JNA frees a callback's native trampoline once its Java object is collected. */
    private final LibC.Comparator comparator = this::compare;
    private long callbacks;
    private long sorts;

    /** Runs until the deadline; returns what it did. */
    String run(long deadlineNanos) {
        while (System.nanoTime() < deadlineNanos) {
            for (int i = 0; i < ELEMENTS; i++) {
                array.setInt((long) i * Integer.BYTES, random.nextInt());
            }
            LibC.INSTANCE.qsort(array, ELEMENTS, Integer.BYTES, comparator);
            checkSorted();
            sorts++;
        }
        return sorts + " sorts of " + ELEMENTS + " ints by libc qsort, " + callbacks
                + " comparator callbacks from C into Java";
    }

    /** Counts the callbacks, which run on this workload's own thread: qsort calls them before it returns. */
    private int compare(Pointer a, Pointer b) {
        callbacks++;
        return Integer.compare(a.getInt(0), b.getInt(0));
    }

    /** Callbacks counted so far. */
    long callbacks() {
        return callbacks;
    }

    private void checkSorted() {
        int[] values = array.getIntArray(0, ELEMENTS);
        for (int i = 1; i < values.length; i++) {
            if (values[i - 1] > values[i]) {
                throw new IllegalStateException("qsort left the array unsorted at " + i);
            }
        }
    }
}
