package io.mixflame.capture.perf;

/**
 * A kernel that refuses every perf event with one errno, as a container's seccomp profile or a paranoid level does;
 * anything that would follow an event opened fails the test. Counts the opens asked for.
 */
public final class RefusingPerfSyscalls implements PerfSyscalls {
    private final int errno;
    private int opens;

    /** @param errno the errno every open is refused with (13: EACCES, 38: ENOSYS) */
    public RefusingPerfSyscalls(int errno) {
        this.errno = errno;
    }

    /** The opens asked for so far. */
    public int opens() {
        return opens;
    }

    @Override
    public int perfEventOpen(byte[] attr, int tid, long flags) {
        opens++;
        return -errno;
    }

    @Override
    public int perfEventOpen(byte[] attr, int tid, int cpu, long flags) {
        opens++;
        return -errno;
    }

    @Override
    public long mmap(int fd, long length) {
        throw new AssertionError("nothing to map");
    }

    @Override
    public void munmap(long address, long length) {
        throw new AssertionError("nothing to unmap");
    }

    @Override
    public int ioctl(int fd, long request) {
        throw new AssertionError("nothing to enable");
    }

    @Override
    public void close(int fd) {
        throw new AssertionError("nothing to close");
    }
}
