package io.mixflame.process.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.mixflame.process.ChunkedProcessMemory;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ProcessMemory;

/**
 * {@link ProcessMemory} over {@code process_vm_readv(2)}, for the own process as for another: the kernel checks
 * every address, so reading an unmapped or protected one fails with EFAULT instead of a SIGSEGV in the JVM.
 * A process of another user needs the permission ptrace would need.
 */
public final class LinuxProcessMemory extends ChunkedProcessMemory {

    static {
        Native.register(LinuxProcessMemory.class, LibcLibrary.get());
    }

    private static native long process_vm_readv(int pid, Pointer localIov, long localCount, Pointer remoteIov,
                                                long remoteCount, long flags);

    private static native long process_vm_writev(int pid, Pointer localIov, long localCount, Pointer remoteIov,
                                                 long remoteCount, long flags);

    private final int pid;
    /** Two struct iovec: the local one at 0, the remote one at 16. */
    private final Memory iovecs = new Memory(32);
    /** The remote iovec, made once: a Pointer made per read would be an allocation on the sampling path. */
    private final Pointer remoteIovec = iovecs.share(16);

    /** A reader of the process with this pid. */
    public LinuxProcessMemory(long pid) {
        if (pid <= 0 || pid > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("not a pid: " + pid);
        }
        this.pid = (int) pid;
        iovecs.setPointer(0, buffer);
    }

    /** A reader of the process it runs in. */
    public static LinuxProcessMemory self() {
        return new LinuxProcessMemory(OwnPid.get());
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    protected int readChunk(long address, int length) {
        iovecs.setLong(8, length);
        iovecs.setLong(16, address);
        iovecs.setLong(24, length);
        countSystemRead();
        long got = process_vm_readv(pid, iovecs, 1, remoteIovec, 1, 0);
        return (int) Math.max(got, 0);
    }

    @Override
    public boolean writeByte(long address, byte value) {
        try (Memory one = new Memory(1); Memory iov = new Memory(32)) {
            one.setByte(0, value);
            iov.setPointer(0, one);
            iov.setLong(8, 1);
            iov.setLong(16, address);
            iov.setLong(24, 1);
            return process_vm_writev(pid, iov, 1, iov.share(16), 1, 0) == 1;
        }
    }

    @Override
    protected void release() {
        iovecs.close();
    }
}
