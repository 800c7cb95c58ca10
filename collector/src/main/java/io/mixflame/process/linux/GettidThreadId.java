package io.mixflame.process.linux;

import com.sun.jna.Native;
import io.mixflame.process.OwnThreadId;

/**
 * The calling thread's kernel id from the {@code gettid} system call, bound directly through JNA: a few hundred
 * nanoseconds and no allocation, where {@link ProcThreadSelf} reads a link of {@code /proc} (a path, a string and a
 * file system call each time). A virtual thread asks at every mount while labels are recorded, so the cost counts.
 */
public final class GettidThreadId implements OwnThreadId {
    private static final long SYS_GETTID = "aarch64".equals(System.getProperty("os.arch")) ? 178 : 186;

    /** The libc function, bound once. */
    private static final class Libc {
        static {
            Native.register(Libc.class, LibcLibrary.get());
        }

        static native long syscall(long number);
    }

    /** This, where the system call can be bound; else {@link ProcThreadSelf}. */
    public static OwnThreadId bestAvailable() {
        try {
            return Libc.syscall(SYS_GETTID) > 0 ? new GettidThreadId() : new ProcThreadSelf();
        } catch (LinkageError | RuntimeException e) {
            return new ProcThreadSelf();
        }
    }

    @Override
    public long current() {
        return Libc.syscall(SYS_GETTID);
    }
}
