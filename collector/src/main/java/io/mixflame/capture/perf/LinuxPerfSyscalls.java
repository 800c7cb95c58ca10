package io.mixflame.capture.perf;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.mixflame.process.linux.LibcLibrary;

/** {@link PerfSyscalls} through libc, with JNA's direct mapping (no per-call reflection). */
public final class LinuxPerfSyscalls implements PerfSyscalls {
    /** {@code __NR_perf_event_open} by architecture; the only per-architecture fact of the capture. */
    private static final long PERF_EVENT_OPEN = "aarch64".equals(System.getProperty("os.arch")) ? 241 : 298;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_SHARED = 0x01;
    private static final long MAP_FAILED = -1;

    /** The libc functions, bound once. */
    private static final class Libc {
        static {
            Native.register(Libc.class, LibcLibrary.get());
        }

        // syscall() is variadic, but it only moves integer registers, so a fixed signature is safe on x86-64.
        static native long syscall(long number, byte[] attr, long pid, long cpu, long group, long flags);

        static native long mmap(Pointer address, long length, int prot, int flags, int fd, long offset);

        static native int munmap(Pointer address, long length);

        static native int ioctl(int fd, long request, long argument);

        static native int close(int fd);
    }

    @Override
    public int perfEventOpen(byte[] attr, int tid, long flags) {
        return perfEventOpen(attr, tid, -1, flags);
    }

    @Override
    public int perfEventOpen(byte[] attr, int tid, int cpu, long flags) {
        long fd = Libc.syscall(PERF_EVENT_OPEN, attr, tid, cpu, -1, flags);
        return fd < 0 ? -Native.getLastError() : (int) fd;
    }

    @Override
    public long mmap(int fd, long length) {
        long address = Libc.mmap(Pointer.NULL, length, PROT_READ_WRITE, MAP_SHARED, fd, 0);
        return address == MAP_FAILED ? -Native.getLastError() : address;
    }

    @Override
    public void munmap(long address, long length) {
        Libc.munmap(new Pointer(address), length);
    }

    @Override
    public int ioctl(int fd, long request) {
        return ioctl(fd, request, 0);
    }

    @Override
    public int ioctl(int fd, long request, long argument) {
        return Libc.ioctl(fd, request, argument) < 0 ? -Native.getLastError() : 0;
    }

    @Override
    public void close(int fd) {
        Libc.close(fd);
    }
}
