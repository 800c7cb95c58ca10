package io.mixflame.capture.ptrace;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.mixflame.capture.CapturedThread;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.linux.LibcLibrary;

/**
 * Captures a running thread of another process with a stop of microseconds: {@code PTRACE_SEIZE} and
 * {@code PTRACE_INTERRUPT} stop it, its registers and the top of its stack are copied, and it is let go at once;
 * the walk happens afterwards on the copy. A process cannot trace its own threads, so this serves only the
 * out-of-process tools.
 */
public final class PtraceCapture {
    private static final long PTRACE_GETREGS = 12;
    private static final long PTRACE_DETACH = 17;
    private static final long PTRACE_SEIZE = 0x4206;
    private static final long PTRACE_INTERRUPT = 0x4207;
    private static final int WALL = 0x40000000;
    private static final int WNOHANG = 1;
    /** How long a thread may take to stop before the capture gives up on it. */
    private static final long STOP_TIMEOUT_NANOS = 1_000_000_000L;
    private static final long POLL_NANOS = 50_000L;
    /** Word indexes of {@code struct user_regs_struct} on x86-64. */
    private static final int RBP = 4;
    private static final int RBX = 5;
    private static final int R12 = 3;
    private static final int RIP = 16;
    private static final int RSP = 19;
    private static final int REGS_BYTES = 27 * 8;

    static {
        Native.register(PtraceCapture.class, LibcLibrary.get());
    }

    private static native long ptrace(long request, int pid, Pointer address, Pointer data) throws LastErrorException;

    private static native int waitpid(int pid, Pointer status, int options) throws LastErrorException;

    private PtraceCapture() {
    }

    /**
     * Waits until the interrupted thread is in its tracing stop. Its notification may never come here: another
     * thread of this JVM that waits on its children (the JDK's process reaper, when the target is a child of this
     * JVM) can take it, since any thread of the tracer's process may. So the thread's state is read as well, and after
     * a second without either the capture fails rather than waiting forever.
     */
    private static void awaitStop(int tid, Memory status) {
        long deadline = System.nanoTime() + STOP_TIMEOUT_NANOS;
        while (!reported(tid, status) && !inTracingStop(tid)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("thread " + tid + " did not stop within a second");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private static boolean reported(int tid, Memory status) {
        try {
            return waitpid(tid, status, WALL | WNOHANG) == tid;
        } catch (LastErrorException e) {
            // ECHILD: another thread of this JVM took the notification
            return false;
        }
    }

    /** Whether {@code /proc/TID/stat} says the thread is stopped for its tracer ('t'). */
    private static boolean inTracingStop(int tid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Integer.toString(tid), "stat"));
            int close = stat.lastIndexOf(')');
            return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 't';
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Stops thread {@code tid}, reads its registers into {@code out} and copies the top of its stack from its sp,
     * then lets it run.
     *
     * @return the number of stack bytes copied
     * @throws IllegalStateException with the reason when the thread cannot be traced (own process, permission)
     */
    public static int capture(long tid, ProcessMemory memory, CapturedThread out) {
        int t = (int) tid;
        try (Memory regs = new Memory(REGS_BYTES); Memory status = new Memory(4)) {
            try {
                ptrace(PTRACE_SEIZE, t, Pointer.NULL, Pointer.NULL);
            } catch (LastErrorException e) {
                throw new IllegalStateException("cannot trace thread " + tid + ": errno " + e.getErrorCode()
                        + (e.getErrorCode() == 1 ? " (EPERM: own process, another user, or a ptrace policy)"
                        : e.getErrorCode() == 13 ? " (EACCES: a seccomp filter or a security module refuses ptrace)"
                        : ""));
            }
            long stopped = System.nanoTime();
            int copied;
            try {
                ptrace(PTRACE_INTERRUPT, t, Pointer.NULL, Pointer.NULL);
                awaitStop(t, status);
                ptrace(PTRACE_GETREGS, t, Pointer.NULL, regs);
                out.clear(tid, System.nanoTime());
                out.setRegister(CapturedThread.RIP, regs.getLong(8L * RIP));
                out.setRegister(CapturedThread.RSP, regs.getLong(8L * RSP));
                out.setRegister(CapturedThread.RBP, regs.getLong(8L * RBP));
                out.setRegister(CapturedThread.RBX, regs.getLong(8L * RBX));
                out.setRegister(CapturedThread.R12, regs.getLong(8L * R12));
                copied = memory.read(out.register(CapturedThread.RSP), out.stackBuffer(), 0,
                        out.stackBuffer().length);
                out.setStackLength(copied);
            } catch (LastErrorException e) {
                throw new IllegalStateException("cannot stop thread " + tid + ": errno " + e.getErrorCode());
            } finally {
                try {
                    ptrace(PTRACE_DETACH, t, Pointer.NULL, Pointer.NULL);
                } catch (LastErrorException e) {
                    // The thread ended while stopped; nothing is left to release.
                }
            }
            // From the interrupt to the thread let go: what the thread lost to the sample.
            out.setPausedNanos(System.nanoTime() - stopped);
            return copied;
        }
    }
}
