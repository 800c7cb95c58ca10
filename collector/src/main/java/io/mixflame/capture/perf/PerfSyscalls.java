package io.mixflame.capture.perf;

/**
 * The system calls the perf capture makes, behind an interface so that tests can refuse them on purpose.
 * Failures return {@code -errno}.
 */
public interface PerfSyscalls {

    /** {@code perf_event_open(attr, tid, cpu=-1, group=-1, flags)}: a file descriptor or -errno. */
    int perfEventOpen(byte[] attr, int tid, long flags);

    /**
     * {@code perf_event_open(attr, tid, cpu, group=-1, flags)}: an event of thread {@code tid} counted only while it
     * runs on {@code cpu}, a file descriptor or -errno. Events of one CPU can share a ring buffer
     * ({@link #ioctl(int, long, long)} with {@code PERF_EVENT_IOC_SET_OUTPUT}); a system without them answers ENOSYS.
     */
    default int perfEventOpen(byte[] attr, int tid, int cpu, long flags) {
        return cpu < 0 ? perfEventOpen(attr, tid, flags) : -38;
    }

    /** Maps a perf buffer read-write and shared: the address, or -errno. */
    long mmap(int fd, long length);

    /** Unmaps. */
    void munmap(long address, long length);

    /** {@code ioctl(fd, request, 0)}: 0 or -errno. */
    int ioctl(int fd, long request);

    /** {@code ioctl(fd, request, argument)}: 0 or -errno; ENOSYS where only {@link #ioctl(int, long)} is offered. */
    default int ioctl(int fd, long request, long argument) {
        return argument == 0 ? ioctl(fd, request) : -38;
    }

    /** Closes a descriptor. */
    void close(int fd);
}
