package io.mixflame.engine.linux;

import com.sun.jna.Native;
import io.mixflame.process.linux.LibcLibrary;

/**
 * The calling thread's CPU time on Linux ({@code clock_gettime(CLOCK_THREAD_CPUTIME_ID)}), for the Linux engines'
 * account of their own threads. Not {@code ManagementFactory.getThreadMXBean()}: its first use starts the JDK's
 * platform-bean machinery (service providers, JFR's bean among them), classes and code the service's JIT compiled
 * for nothing but this number.
 */
public final class ThreadCpuClock {
    private static final int CLOCK_THREAD_CPUTIME_ID = 3;

    /** libc's clock, bound once (direct mapping: no per-call reflection). */
    private static final class Libc {
        static {
            Native.register(Libc.class, LibcLibrary.get());
        }

        /** {@code struct timespec} is two longs on 64-bit Linux. */
        static native int clock_gettime(int clock, long[] timespec);
    }

    private final long[] timespec = new long[2];

    /** The calling thread's CPU time in nanoseconds, or -1 when the clock cannot be read. Not thread-safe. */
    public long nanos() {
        try {
            return Libc.clock_gettime(CLOCK_THREAD_CPUTIME_ID, timespec) == 0
                    ? timespec[0] * 1_000_000_000L + timespec[1] : -1;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return -1;
        }
    }
}
