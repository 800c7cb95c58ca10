package io.mixflame.capture.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.capture.CapturedThread;
import io.mixflame.process.MemoryReadException;
import io.mixflame.process.windows.Kernel32Calls;
import io.mixflame.process.windows.NtdllCalls;
import io.mixflame.process.windows.WindowsProcessMemory;
import java.util.HashMap;
import java.util.Map;

/**
 * Captures a thread of another Windows process: SuspendThread, GetThreadContext (which returns only once the thread
 * is really stopped), the top of its stack copied with ReadProcessMemory, ResumeThread — nothing else while it is
 * stopped, not even an allocation, so the profiler never holds a lock the target's threads wait for. The stack's
 * limits come from the thread's TEB, read once per thread. Must run in a process other than the target's: a thread
 * that suspends a thread of its own JVM can deadlock against a safepoint.
 */
public final class SuspendedThreadCapture implements AutoCloseable {
    /** CONTEXT_AMD64 | CONTEXT_CONTROL | CONTEXT_INTEGER. */
    private static final int CONTEXT_CONTROL_INTEGER = 0x00100000 | 0x1 | 0x2;
    private static final int CONTEXT_SIZE = 0x4d0;
    private static final int CONTEXT_FLAGS = 0x30;
    /** Offsets of rax..r15 (in Windows' order: rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8..r15) and rip. */
    private static final int CONTEXT_RAX = 0x78;
    private static final int CONTEXT_RIP = 0xf8;
    /** Windows register order to the DWARF numbers CapturedThread uses. */
    private static final int[] TO_DWARF = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
    private static final int TEB_STACK_BASE = 0x08;
    private static final int TEB_STACK_LIMIT = 0x10;
    private static final int MAX_THREADS = 4096;
    private static final int ACCESS = Kernel32Calls.THREAD_SUSPEND_RESUME | Kernel32Calls.THREAD_GET_CONTEXT
            | Kernel32Calls.THREAD_QUERY_INFORMATION;

    private final WindowsProcessMemory memory;
    private final int stackBytes;
    private final Memory contextBlock = new Memory(CONTEXT_SIZE + 16);
    /** x64's CONTEXT must be 16-byte aligned, which Memory does not promise. */
    private final Pointer context = contextBlock.align(16);
    private final long contextAddress = Pointer.nativeValue(context);
    private final Memory basicInfo = new Memory(NtdllCalls.THREAD_BASIC_INFORMATION_SIZE);
    /** Open handles by thread id; closed all together if the bound is reached. */
    private final Map<Integer, ThreadHandle> handles = new HashMap<>();
    private long suspendedNanos;
    private long captures;

    /** An open thread and its stack's limits, kept while the thread is sampled. */
    private record ThreadHandle(long handle, long stackLow, long stackHigh) {
    }

    /**
     * @param memory     the target's memory
     * @param stackBytes how much of the top of each stack to copy at most
     */
    public SuspendedThreadCapture(WindowsProcessMemory memory, int stackBytes) {
        this.memory = memory;
        this.stackBytes = stackBytes;
    }

    /**
     * Captures thread {@code tid} into {@code out}.
     *
     * @return null on success, else why the thread could not be captured
     */
    public String capture(int tid, CapturedThread out) {
        ThreadHandle t = handles.get(tid);
        if (t == null) {
            if (handles.size() >= MAX_THREADS) {
                closeHandles();
            }
            t = open(tid);
            if (t == null) {
                return "thread " + tid + " cannot be opened (it ended, or access is denied)";
            }
            handles.put(tid, t);
        }
        contextBlock.clear();
        context.setInt(CONTEXT_FLAGS, CONTEXT_CONTROL_INTEGER);
        long start = System.nanoTime();
        out.clear(tid, start);
        if (Kernel32Calls.SuspendThread(t.handle()) == -1) {
            forget(tid, t);
            return "thread " + tid + " cannot be suspended (it ended)";
        }
        boolean got;
        int copied = 0;
        long sp = 0;
        try {
            got = Kernel32Calls.GetThreadContext(t.handle(), contextAddress);
            if (got) {
                sp = context.getLong(CONTEXT_RAX + 8L * 4);
                if (Long.compareUnsigned(sp, t.stackLow()) >= 0 && Long.compareUnsigned(sp, t.stackHigh()) < 0) {
                    int length = (int) Math.min(Math.min(stackBytes, out.stackBuffer().length), t.stackHigh() - sp);
                    copied = memory.read(sp, out.stackBuffer(), 0, length);
                }
            }
        } finally {
            Kernel32Calls.ResumeThread(t.handle());
        }
        suspendedNanos += System.nanoTime() - start;
        captures++;
        if (!got) {
            return "the registers of thread " + tid + " cannot be read";
        }
        for (int w = 0; w < TO_DWARF.length; w++) {
            out.setRegister(TO_DWARF[w], context.getLong(CONTEXT_RAX + 8L * w));
        }
        out.setRegister(CapturedThread.RIP, context.getLong(CONTEXT_RIP));
        out.setStackLength(copied);
        out.setStackRegion(t.stackLow(), t.stackHigh());
        return copied == 0 ? "the stack of thread " + tid + " at 0x" + Long.toHexString(sp) + " cannot be read" : null;
    }

    private ThreadHandle open(int tid) {
        long handle = Kernel32Calls.OpenThread(ACCESS, false, tid);
        if (handle == 0) {
            return null;
        }
        if (NtdllCalls.NtQueryInformationThread(handle, NtdllCalls.THREAD_BASIC_INFORMATION, basicInfo,
                NtdllCalls.THREAD_BASIC_INFORMATION_SIZE, Pointer.NULL) != 0) {
            Kernel32Calls.CloseHandle(handle);
            return null;
        }
        long teb = basicInfo.getLong(NtdllCalls.TEB_BASE_OFFSET);
        try {
            long high = memory.readLong(teb + TEB_STACK_BASE);
            long low = memory.readLong(teb + TEB_STACK_LIMIT);
            if (Long.compareUnsigned(low, high) >= 0) {
                Kernel32Calls.CloseHandle(handle);
                return null;
            }
            return new ThreadHandle(handle, low, high);
        } catch (MemoryReadException e) {
            Kernel32Calls.CloseHandle(handle);
            return null;
        }
    }

    private void forget(int tid, ThreadHandle t) {
        Kernel32Calls.CloseHandle(t.handle());
        handles.remove(tid);
    }

    /** Total time threads spent suspended by this capture, in nanoseconds. */
    public long suspendedNanos() {
        return suspendedNanos;
    }

    /** Number of captures made. */
    public long captures() {
        return captures;
    }

    /** Closes the handles of threads that are no longer sampled, such as threads that ended. */
    public void closeHandles() {
        handles.values().forEach(t -> Kernel32Calls.CloseHandle(t.handle()));
        handles.clear();
    }

    @Override
    public void close() {
        closeHandles();
        contextBlock.close();
        basicInfo.close();
    }
}
