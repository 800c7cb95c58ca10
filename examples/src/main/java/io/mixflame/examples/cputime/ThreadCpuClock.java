package io.mixflame.examples.cputime;

import java.lang.management.ManagementFactory;

/**
 * The current thread's CPU time where the runtime can tell it: through java.management, which a jlinked runtime
 * (the Windows JRE the tests use) may lack — the workloads then report -1 rather than fail.
 */
public final class ThreadCpuClock {
    private ThreadCpuClock() {
    }

    /** The current thread's CPU time in nanoseconds, or -1 when this runtime cannot tell it. */
    public static long currentThreadCpuNanos() {
        try {
            return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        } catch (LinkageError | UnsupportedOperationException e) {
            return -1;
        }
    }
}
