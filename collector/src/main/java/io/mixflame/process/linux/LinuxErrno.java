package io.mixflame.process.linux;

/**
 * The errno values the profiler's system calls on Linux tell apart (the same on every architecture Linux runs
 * mixflame on), defined once: system calls made through JNA return them negated or throw them.
 */
public final class LinuxErrno {
    public static final int EPERM = 1;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int EACCES = 13;
    public static final int EINVAL = 22;

    private LinuxErrno() {
    }
}
