package io.mixflame.capture.ptrace;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.HostArchitecture;
import io.mixflame.capture.HostRegisters;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.linux.LibcLibrary;
import io.mixflame.process.linux.LinuxErrno;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Captures a running thread of another process with a stop of microseconds: {@code PTRACE_SEIZE} and
 * {@code PTRACE_INTERRUPT} stop it, its registers and the top of its stack are copied, and it is let go at once;
 * the walk happens afterwards on the copy. A process cannot trace its own threads, so this serves only the
 * out-of-process tools. One instance serves one sampling thread (its buffers are reused).
 */
public final class PtraceCapture {
    /**
     * Reads a register set; of {@link #NT_PRSTATUS}, the general registers, in the architecture's layout (on x86-64
     * {@code user_regs_struct}, as {@code PTRACE_GETREGS} gives it; aarch64 has only this request).
     */
    private static final long PTRACE_GETREGSET = 0x4204;
    private static final long NT_PRSTATUS = 1;
    private static final Pointer GENERAL_REGISTERS = new Pointer(NT_PRSTATUS);
    private static final long PTRACE_DETACH = 17;
    private static final long PTRACE_SEIZE = 0x4206;
    private static final long PTRACE_INTERRUPT = 0x4207;
    private static final int WALL = 0x40000000;
    private static final int WNOHANG = 1;
    /** How long the process's first thread may take to stop before the capture gives up on it. */
    private static final long STOP_TIMEOUT_NANOS = 1_000_000_000L;
    private static final long POLL_NANOS = 20_000L;

    static {
        Native.register(PtraceCapture.class, LibcLibrary.get());
    }

    private static native long ptrace(long request, int pid, Pointer address, Pointer data) throws LastErrorException;

    private static native int waitpid(int pid, Pointer status, int options) throws LastErrorException;

    private final int pid;
    /** The register set's layout, by the host's architecture: the word of each DWARF-numbered register, or -1. */
    private static final int[] REGISTER_WORDS = HostArchitecture.current().ptraceRegisterWords();

    private final Memory regs = new Memory(Math.max(8, HostArchitecture.current().ptraceRegisterBytes()));
    /** {@code struct iovec} over {@link #regs}: where {@code PTRACE_GETREGSET} writes, and how much it may. */
    private final Memory regsVector = new Memory(16);
    private final Memory status = new Memory(4);

    /** @param pid the process whose threads are captured */
    public PtraceCapture(long pid) {
        this.pid = (int) pid;
    }

    /**
     * Stops thread {@code tid}, reads its registers into {@code out} and copies the top of its stack from its sp,
     * then lets it run. The time from the interrupt to the thread let go is recorded in {@code out}.
     *
     * @return the number of stack bytes copied
     * @throws IllegalStateException with the reason when the thread cannot be traced (own process, permission) or
     *                               ended meanwhile
     */
    public int capture(long tid, ProcessMemory memory, CapturedThread out) {
        String unsupported = HostArchitecture.unsupportedReason();
        if (unsupported != null) {
            throw new IllegalStateException(unsupported);
        }
        int t = (int) tid;
        try {
            ptrace(PTRACE_SEIZE, t, Pointer.NULL, Pointer.NULL);
        } catch (LastErrorException e) {
            throw new IllegalStateException("cannot trace thread " + tid + ": errno " + e.getErrorCode()
                    + (e.getErrorCode() == LinuxErrno.EPERM ? " (EPERM: own process, another user, or a ptrace policy)"
                    : e.getErrorCode() == LinuxErrno.EACCES ? " (EACCES: a seccomp filter or a security module refuses ptrace)"
                    : ""));
        }
        long stopped = System.nanoTime();
        int copied;
        int signal = 0;
        try {
            ptrace(PTRACE_INTERRUPT, t, Pointer.NULL, Pointer.NULL);
            int stop = t == pid ? pollStop(t) : awaitStop(t);
            if (stop == -1) {
                throw new IllegalStateException("thread " + tid + " ended");
            }
            signal = stop;
            regsVector.setPointer(0, regs);
            regsVector.setLong(8, regs.size());
            ptrace(PTRACE_GETREGSET, t, GENERAL_REGISTERS, regsVector);
            out.clear(tid, System.nanoTime());
            for (int register = 0; register < REGISTER_WORDS.length; register++) {
                if (REGISTER_WORDS[register] >= 0) {
                    out.setRegister(register, regs.getLong(8L * REGISTER_WORDS[register]));
                }
            }
            copied = memory.read(out.register(HostRegisters.SP), out.stackBuffer(), 0, out.stackBuffer().length);
            out.setStackLength(copied);
        } catch (LastErrorException e) {
            throw new IllegalStateException("cannot stop thread " + tid + ": errno " + e.getErrorCode());
        } finally {
            detach(t, signal);
        }
        out.setPausedNanos(System.nanoTime() - stopped);
        return copied;
    }

    /**
     * Waits for the thread's stop. A signal that reached it first (the JVM's own: a safepoint poll's fault, a
     * suspend request) stops it too, and is handed back on release so that the thread still receives it.
     *
     * @return the signal to give back (0 for the interrupt's own stop), or -1 when the thread ended
     */
    private int awaitStop(int tid) {
        while (true) {
            try {
                if (waitpid(tid, status, WALL) == tid) {
                    return stopSignal(status.getInt(0));
                }
            } catch (LastErrorException e) {
                if (e.getErrorCode() != LinuxErrno.EINTR) {
                    return -1;
                }
            }
        }
    }

    /**
     * The process's first thread is also a child's main thread where the target is this process's child, and the
     * JDK's reaper thread, waiting on that child, may take its stop's notice. So its state is read as well, and
     * after a second without either the capture fails rather than waiting forever.
     */
    private int pollStop(int tid) {
        long deadline = System.nanoTime() + STOP_TIMEOUT_NANOS;
        while (true) {
            try {
                if (waitpid(tid, status, WALL | WNOHANG) == tid) {
                    return stopSignal(status.getInt(0));
                }
            } catch (LastErrorException e) {
                // ECHILD: another thread of this JVM took the notification
            }
            if (inTracingStop(tid)) {
                return 0;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("thread " + tid + " did not stop within a second");
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** The signal of a signal-delivery stop, 0 for the interrupt's (an event) stop, -1 for an exit. */
    private static int stopSignal(int waitStatus) {
        boolean isStopped = (waitStatus & 0xff) == 0x7f;
        if (!isStopped) {
            return -1;
        }
        int signal = (waitStatus >> 8) & 0xff;
        boolean event = (waitStatus >>> 16) != 0;
        return event ? 0 : signal;
    }

    private static void detach(int tid, int signal) {
        try {
            ptrace(PTRACE_DETACH, tid, Pointer.NULL, signal > 0 ? Pointer.createConstant(signal) : Pointer.NULL);
        } catch (LastErrorException e) {
            // The thread ended while stopped; nothing is left to release.
        }
    }

    /** Whether {@code /proc/TID/stat} says the thread is stopped for its tracer ('t'). */
    private static boolean inTracingStop(int tid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(tid), "stat"));
            int close = stat.lastIndexOf(')');
            return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 't';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
