package io.mixflame.capture.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.x64.X64Registers;
import io.mixflame.process.MemoryReadException;
import io.mixflame.process.windows.Kernel32Calls;
import io.mixflame.process.windows.NtdllCalls;
import io.mixflame.process.windows.WindowsProcessMemory;
import io.mixflame.process.windows.ThreadHandleTable;

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
    /** Open threads, each with its stack's limits (low, high). */
    private final ThreadHandleTable handles = new ThreadHandleTable(ACCESS, MAX_THREADS);
    private long suspendedNanos;
    private long captures;

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
        int slot = handles.slotOf(tid);
        if (slot < 0) {
            return "thread " + tid + " cannot be opened (it ended, or access is denied)";
        }
        if (handles.first(slot) == 0 && !readStackLimits(slot)) {
            handles.forget(tid);
            return "the stack of thread " + tid + " cannot be found (its TEB cannot be read)";
        }
        long handle = handles.handle(slot);
        long stackLow = handles.first(slot);
        long stackHigh = handles.second(slot);
        contextBlock.clear();
        context.setInt(CONTEXT_FLAGS, CONTEXT_CONTROL_INTEGER);
        long start = System.nanoTime();
        out.clear(tid, start);
        if (Kernel32Calls.SuspendThread(handle) == -1) {
            handles.forget(tid);
            return "thread " + tid + " cannot be suspended (it ended)";
        }
        boolean got;
        int copied = 0;
        long sp = 0;
        try {
            got = Kernel32Calls.GetThreadContext(handle, contextAddress);
            if (got) {
                // SuspendThread returns before the thread has stopped; once its context is read it has, and it
                // cannot move (nor change its labels) until resumed: the sample's moment, for labels at that time.
                out.setTime(System.nanoTime());
                sp = context.getLong(CONTEXT_RAX + 8L * 4);
                if (!within(sp, stackLow, stackHigh) && readStackLimits(slot)) {
                    // The TEB's limit is the lowest committed page: it moves down as the stack grows.
                    stackLow = handles.first(slot);
                    stackHigh = handles.second(slot);
                }
                if (within(sp, stackLow, stackHigh)) {
                    int length = (int) Math.min(Math.min(stackBytes, out.stackBuffer().length), stackHigh - sp);
                    copied = memory.read(sp, out.stackBuffer(), 0, length);
                }
            }
        } finally {
            Kernel32Calls.ResumeThread(handle);
        }
        long paused = System.nanoTime() - start;
        out.setPausedNanos(paused);
        suspendedNanos += paused;
        captures++;
        if (!got) {
            return "the registers of thread " + tid + " cannot be read";
        }
        for (int w = 0; w < TO_DWARF.length; w++) {
            out.setRegister(TO_DWARF[w], context.getLong(CONTEXT_RAX + 8L * w));
        }
        out.setRegister(X64Registers.RIP, context.getLong(CONTEXT_RIP));
        out.setStackLength(copied);
        out.setStackRegion(stackLow, stackHigh);
        return copied == 0 ? "the stack of thread " + tid + " at 0x" + Long.toHexString(sp) + " cannot be read" : null;
    }

    private static boolean within(long sp, long low, long high) {
        return Long.compareUnsigned(sp, low) >= 0 && Long.compareUnsigned(sp, high) < 0;
    }

    /** Reads a newly opened thread's stack limits from its TEB into its slot; false when they cannot be read. */
    private boolean readStackLimits(int slot) {
        if (NtdllCalls.NtQueryInformationThread(handles.handle(slot), NtdllCalls.THREAD_BASIC_INFORMATION, basicInfo,
                NtdllCalls.THREAD_BASIC_INFORMATION_SIZE, Pointer.NULL) != 0) {
            return false;
        }
        long teb = basicInfo.getLong(NtdllCalls.TEB_BASE_OFFSET);
        try {
            long high = memory.readLong(teb + TEB_STACK_BASE);
            long low = memory.readLong(teb + TEB_STACK_LIMIT);
            if (low == 0 || Long.compareUnsigned(low, high) >= 0) {
                return false;
            }
            handles.keep(slot, low, high);
            return true;
        } catch (MemoryReadException e) {
            return false;
        }
    }

    /** Total time threads spent suspended by this capture, in nanoseconds. */
    public long suspendedNanos() {
        return suspendedNanos;
    }

    /** Number of captures made. */
    public long captures() {
        return captures;
    }

    /** Closes the handles of threads other than the first {@code n} of {@code alive}: those that ended. */
    public void retainOnly(int[] alive, int n) {
        handles.retainOnly(alive, n);
    }

    @Override
    public void close() {
        handles.close();
        contextBlock.close();
        basicInfo.close();
    }
}
