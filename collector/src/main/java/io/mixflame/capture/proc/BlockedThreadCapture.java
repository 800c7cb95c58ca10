package io.mixflame.capture.proc;

import io.mixflame.process.BlockedThreadState;
import io.mixflame.process.MemoryMapping;
import io.mixflame.process.ProcessMemory;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
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
    private byte[] stack;

    /**
     * @param pid        the process
     * @param memory     a reader of its memory
     * @param stackBytes how much of the stack to copy at once (the walk reads further through {@code memory})
     */
    public BlockedThreadCapture(long pid, ProcessMemory memory, int stackBytes) {
        this.pid = pid;
        this.memory = memory;
        this.stackBytes = stackBytes;
        this.stack = new byte[stackBytes];
    }

    /**
     * Sets up {@code context} and {@code stackMemory} for a walk of thread {@code tid}.
     *
     * @param stackRegion the mapping holding a stack pointer, to bound the stack
     * @return the state the thread was captured in, empty when it is running (not blocked) or its stack is unknown
     */
    public Optional<BlockedThreadState> capture(long tid, LongFunction<Optional<MemoryMapping>> stackRegion,
                                                UnwindContext context, StackMemory stackMemory) throws IOException {
        Optional<BlockedThreadState> state = BlockedThreadState.read(pid, tid);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        BlockedThreadState s = state.get();
        Optional<MemoryMapping> region = stackRegion.apply(s.sp());
        if (region.isEmpty()) {
            return Optional.empty();
        }
        long end = region.get().end();
        int length = (int) Math.min(stackBytes, end - s.sp());
        int copied = memory.read(s.sp(), stack, 0, length);
        stackMemory.setCopy(s.sp(), stack, copied);
        Registers r = context.registers();
        r.clear();
        r.set(Registers.RSP, s.sp());
        r.set(Registers.RIP, s.pc());
        context.setBounds(new StackBounds(region.get().start(), end));
        return state;
    }

    /** Whether the thread is still exactly where {@code before} found it. */
    public boolean unchanged(long tid, BlockedThreadState before) throws IOException {
        Optional<BlockedThreadState> now = BlockedThreadState.read(pid, tid);
        return now.isPresent() && now.get().line().equals(before.line());
    }
}
