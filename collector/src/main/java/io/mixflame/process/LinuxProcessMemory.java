package io.mixflame.process;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * {@link ProcessMemory} over {@code process_vm_readv(2)}, for the own process as for another: the kernel checks
 * every address, so reading an unmapped or protected one fails with EFAULT instead of a SIGSEGV in the JVM.
 * A process of another user needs the permission ptrace would need.
 */
public final class LinuxProcessMemory implements ProcessMemory {
    private static final int CHUNK = 64 * 1024;

    static {
        Native.register(LinuxProcessMemory.class, NativeLibrary.getInstance("c"));
    }

    private static native long process_vm_readv(int pid, Pointer localIov, long localCount, Pointer remoteIov,
                                                long remoteCount, long flags);

    private final int pid;
    private final Memory buffer = new Memory(CHUNK);
    /** Two struct iovec: the local one at 0, the remote one at 16. */
    private final Memory iovecs = new Memory(32);
    private boolean closed;

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
        return new LinuxProcessMemory(ProcessHandle.current().pid());
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public int read(long address, byte[] target, int offset, int length) {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        int done = 0;
        while (done < length) {
            int n = Math.min(CHUNK, length - done);
            int got = readChunk(address + done, n);
            if (got <= 0) {
                break;
            }
            buffer.read(0, target, offset + done, got);
            done += got;
            if (got < n) {
                break;
            }
        }
        return done;
    }

    private int readChunk(long address, int length) {
        if (address == 0 || address + length < address) {
            return 0;
        }
        iovecs.setLong(8, length);
        iovecs.setLong(16, address);
        iovecs.setLong(24, length);
        long got = process_vm_readv(pid, iovecs, 1, iovecs.share(16), 1, 0);
        return (int) Math.max(got, 0);
    }

    @Override
    public long readLong(long address) throws MemoryReadException {
        if (readChunk(address, 8) != 8) {
            throw new MemoryReadException(address);
        }
        return buffer.getLong(0);
    }

    @Override
    public int readInt(long address) throws MemoryReadException {
        if (readChunk(address, 4) != 4) {
            throw new MemoryReadException(address);
        }
        return buffer.getInt(0);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            buffer.close();
            iovecs.close();
        }
    }
}
