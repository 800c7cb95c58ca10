package io.mixflame.capture.perf;

/**
 * The system calls the perf capture makes, behind an interface so that tests can refuse them on purpose.
 * Failures return {@code -errno}.
 */
public interface PerfSyscalls {

    /** {@code perf_event_open(attr, tid, cpu=-1, group=-1, flags)}: a file descriptor or -errno. */
    int perfEventOpen(byte[] attr, int tid, long flags);

    /** Maps a perf buffer read-write and shared: the address, or -errno. */
    long mmap(int fd, long length);

    /** Unmaps. */
    void munmap(long address, long length);

    /** {@code ioctl(fd, request, 0)}: 0 or -errno. */
    int ioctl(int fd, long request);

    /** Closes a descriptor. */
    void close(int fd);
}
