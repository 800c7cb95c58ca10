package io.mixflame.capture.perf;

import java.util.Arrays;

/**
 * The descriptors of a {@link PerCpuPerfCapture}'s events but for the grown threads' own: one per thread alive at
 * start and CPU, and the profiler's threads'. They stay open until the capture closes, also after their thread ends,
 * as closing an inherited event ends the events its thread's descendants inherited.
 */
final class InheritedEvents {
    private final PerfSyscalls sys;
    private int[] fds = new int[64];
    private int open;
    /** Descriptors opened in all, for the cost note (also after the close). */
    private int opened;

    InheritedEvents(PerfSyscalls sys) {
        this.sys = sys;
    }

    /** Keeps {@code fd} open until {@link #close}. */
    void keep(int fd) {
        if (open == fds.length) {
            fds = Arrays.copyOf(fds, open * 2);
        }
        fds[open++] = fd;
        opened++;
    }

    /** Descriptors opened in all. */
    int opened() {
        return opened;
    }

    /** Closes every descriptor kept. */
    void close() {
        for (int i = 0; i < open; i++) {
            sys.close(fds[i]);
        }
        open = 0;
    }
}
