package io.mixflame.capture.linux;

import io.mixflame.capture.CaptureMethod;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.ThreadCapture;
import io.mixflame.capture.ThreadCaptureException;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.capture.proc.BlockedThreadState;
import io.mixflame.capture.proc.KernelStack;
import io.mixflame.capture.ptrace.PtraceCapture;
import io.mixflame.capture.HostRegisters;
import io.mixflame.process.MemoryMapping;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ProcessMemory;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * A thread of a Linux process captured for a thread dump: a thread blocked in the kernel from its syscall line
 * without stopping it (then checked unchanged after the walk); a running thread of another process stopped for
 * microseconds with ptrace. A running thread of the profiler's own process cannot be captured this way.
 */
public final class LinuxThreadCapture implements ThreadCapture {
    private final long pid;
    private final ProcessMemory memory;
    private final LongFunction<MemoryMapping> stackRegion;
    private final BlockedThreadCapture blocked;
    private final PtraceCapture stopped;
    private BlockedThreadState lastBlocked;

    /**
     * @param pid         the process
     * @param memory      its memory
     * @param stackRegion the mapping holding a stack pointer, or null
     * @param stackBytes  how much of a stack to copy at most
     */
    public LinuxThreadCapture(long pid, ProcessMemory memory, LongFunction<MemoryMapping> stackRegion, int stackBytes) {
        this.pid = pid;
        this.memory = memory;
        this.stackRegion = stackRegion;
        this.blocked = new BlockedThreadCapture(pid, memory, stackBytes);
        this.stopped = new PtraceCapture(pid);
    }

    @Override
    public CaptureMethod capture(int tid, CapturedThread out) throws ThreadCaptureException {
        lastBlocked = null;
        Optional<BlockedThreadState> state;
        try {
            state = blocked.capture(tid, stackRegion, out);
        } catch (IOException e) {
            throw new ThreadCaptureException("thread " + tid + " of process " + pid + " does not exist");
        }
        if (state.isPresent()) {
            lastBlocked = state.get();
            return CaptureMethod.BLOCKED_IN_KERNEL;
        }
        if (pid == OwnPid.get()) {
            throw new ThreadCaptureException("thread " + tid + " is running; a running thread of the own process can"
                    + " only be captured by the perf sampler");
        }
        try {
            stopped.capture(tid, memory, out);
        } catch (IllegalStateException e) {
            throw new ThreadCaptureException(e.getMessage());
        }
        MemoryMapping region = stackRegion.apply(out.register(HostRegisters.SP));
        if (region != null) {
            out.setStackRegion(region.start(), region.end());
        }
        return CaptureMethod.PTRACE_STOP;
    }

    @Override
    public boolean stillAsCaptured(int tid) {
        if (lastBlocked == null) {
            return true;
        }
        try {
            return blocked.unchanged(tid, lastBlocked);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void retainOnly(int[] alive, int n) {
        blocked.retainOnly(alive, n);
    }

    @Override
    public void close() {
        blocked.close();
    }

    @Override
    public List<String> kernelFrames(int tid) {
        return KernelStack.read(pid, tid);
    }
}
