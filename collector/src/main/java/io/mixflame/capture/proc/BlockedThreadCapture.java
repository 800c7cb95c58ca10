package io.mixflame.capture.proc;

import io.mixflame.capture.CapturedThread;
import io.mixflame.process.MemoryMapping;
import io.mixflame.process.ProcessMemory;
import java.io.IOException;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * Captures a thread that is blocked in the kernel without stopping it: its syscall line gives sp and pc, and the
 * top of its stack is copied through {@link ProcessMemory}. Reading the line again after the walk tells whether
 * the thread moved meanwhile, in which case the capture is discarded.
 */
public final class BlockedThreadCapture {
    private final long pid;
    private final ProcessMemory memory;
    private final int stackBytes;

    /**
     * @param pid        the process
     * @param memory     a reader of its memory
     * @param stackBytes how much of the stack to copy at once (the walk reads further through {@code memory})
     */
    public BlockedThreadCapture(long pid, ProcessMemory memory, int stackBytes) {
        this.pid = pid;
        this.memory = memory;
        this.stackBytes = stackBytes;
    }

    /**
     * Captures thread {@code tid} into {@code out}: sp and pc from its syscall line, the top of its stack, its stack
     * region.
     *
     * @param stackRegion the mapping holding a stack pointer, or null, to bound the stack
     * @return the state the thread was captured in, empty when it is running (not blocked) or its stack is unknown
     */
    public Optional<BlockedThreadState> capture(long tid, LongFunction<MemoryMapping> stackRegion,
                                                CapturedThread out) throws IOException {
        Optional<BlockedThreadState> state = BlockedThreadState.read(pid, tid);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        BlockedThreadState s = state.get();
        MemoryMapping region = stackRegion.apply(s.sp());
        if (region == null) {
            return Optional.empty();
        }
        long end = region.end();
        int length = (int) Math.min(Math.min(stackBytes, out.stackBuffer().length), end - s.sp());
        out.clear(tid, System.nanoTime());
        out.setStackLength(memory.read(s.sp(), out.stackBuffer(), 0, length));
        out.setRegister(CapturedThread.RSP, s.sp());
        out.setRegister(CapturedThread.RIP, s.pc());
        out.setStackRegion(region.start(), end);
        return state;
    }

    /** Whether the thread is still exactly where {@code before} found it. */
    public boolean unchanged(long tid, BlockedThreadState before) throws IOException {
        Optional<BlockedThreadState> now = BlockedThreadState.read(pid, tid);
        return now.isPresent() && now.get().line().equals(before.line());
    }
}
