package io.mixflame.examples.mixed;

import com.sun.jna.Memory;

/**
 * Compares two equal buffers with libc's {@code memcmp} again and again: a native hot loop (libc's vectorized
 * compare) under a Java caller, reached through JNA without any C of ours.
 */
final class MemcmpPhase {
    private static final int BUFFER_BYTES = 256 * 1024;

    private final Memory a = new Memory(BUFFER_BYTES);
    private final Memory b = new Memory(BUFFER_BYTES);

    /** Runs until the deadline; returns what it did. */
    String run(long deadlineNanos) {
        for (int i = 0; i < BUFFER_BYTES; i++) {
            byte v = (byte) (i * 31);
            a.setByte(i, v);
            b.setByte(i, v);
        }
        // Equal buffers, so that every call compares all of them.
        long size = BUFFER_BYTES;
        long calls = 0;
        while (System.nanoTime() < deadlineNanos) {
            if (LibC.INSTANCE.memcmp(a, b, size) != 0) {
                throw new IllegalStateException("memcmp found equal buffers different");
            }
            calls++;
        }
        return calls + " libc memcmp calls over " + BUFFER_BYTES / 1024 + " KiB (" + calls * BUFFER_BYTES / (1 << 20)
                + " MiB compared)";
    }
}
