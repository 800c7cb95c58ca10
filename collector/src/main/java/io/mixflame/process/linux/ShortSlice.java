package io.mixflame.process.linux;

import com.sun.jna.Native;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Asks the kernel's scheduler for a short time slice for the calling thread ({@code sched_setattr} with
 * {@code sched_runtime}, which Linux 6.12 and later read as a normal task's slice under EEVDF): no more CPU than its
 * fair share, but a near deadline, so that the thread runs soon after it wakes even when hundreds of the
 * application's threads wait for a core. No privilege is needed. Older kernels ignore the field for normal tasks.
 */
public final class ShortSlice {
    private static final long SCHED_SETATTR = "aarch64".equals(System.getProperty("os.arch")) ? 274 : 314;
    private static final int SCHED_ATTR_SIZE = 56;

    private ShortSlice() {
    }

    /** The libc function, bound once. */
    private static final class Libc {
        static {
            Native.register(Libc.class, LibcLibrary.get());
        }

        static native long syscall(long number, long tid, byte[] attr, long flags);
    }

    /**
     * Gives the calling thread a slice of {@code nanos} (the kernel keeps it within 0.1 to 100 ms), at its present
     * nice value.
     *
     * @return 0, or the errno the kernel answered
     */
    public static int request(long nanos, int nice) {
        ByteBuffer attr = ByteBuffer.allocate(SCHED_ATTR_SIZE).order(ByteOrder.nativeOrder());
        attr.putInt(0, SCHED_ATTR_SIZE);
        attr.putInt(4, 0); // SCHED_OTHER
        attr.putLong(8, 0); // flags
        attr.putInt(16, nice);
        attr.putInt(20, 0);
        attr.putLong(24, nanos);
        try {
            return Libc.syscall(SCHED_SETATTR, 0, attr.array(), 0) < 0 ? Native.getLastError() : 0;
        } catch (LinkageError | RuntimeException e) {
            return -1;
        }
    }
}
