package io.mixflame.capture;

/** How a thread's stack was captured. */
public enum CaptureMethod {
    /** The thread was blocked in the kernel: sp and pc from {@code /proc/PID/task/TID/syscall}, not stopped. */
    BLOCKED_IN_KERNEL,
    /** The thread was running: stopped for microseconds with ptrace while registers and stack were copied. */
    PTRACE_STOP,
    /** The thread was suspended (Windows' SuspendThread) while registers and stack were copied. */
    SUSPENDED,
    /** Walked from registers the caller supplied. */
    CALLER_CONTEXT,
    /** Not captured (see the error). */
    NONE
}
