package io.mixflame.capture.proc;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.HostRegisters;
import io.mixflame.process.MemoryMapping;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.linux.TaskFileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
    /** The threads' syscall lines, read through descriptors held open: a sampler reads them at every tick. */
    private final TaskFileReader syscalls;

    /**
     * @param pid        the process
     * @param memory     a reader of its memory
     * @param stackBytes how much of the stack to copy at once (the walk reads further through {@code memory})
     */
    public BlockedThreadCapture(long pid, ProcessMemory memory, int stackBytes) {
        this.pid = pid;
        this.memory = memory;
        this.stackBytes = stackBytes;
        this.syscalls = new TaskFileReader(pid, "syscall", 256);
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
        Optional<BlockedThreadState> state = BlockedThreadState.parse(line(tid));
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
        out.setRegister(HostRegisters.SP, s.sp());
        out.setRegister(HostRegisters.PC, s.pc());
        out.setStackRegion(region.start(), end);
        return state;
    }

    /** Whether the thread is still exactly where {@code before} found it. */
    public boolean unchanged(long tid, BlockedThreadState before) throws IOException {
        Optional<BlockedThreadState> now = BlockedThreadState.parse(line(tid));
        return now.isPresent() && now.get().line().equals(before.line());
    }

    /** Thread {@code tid}'s syscall line; throws when the thread is gone. */
    private String line(long tid) throws IOException {
        int n = syscalls.read((int) tid);
        if (n < 0) {
            throw new IOException("thread " + tid + " of process " + pid + " is gone");
        }
        return new String(syscalls.buffer().array(), 0, n, StandardCharsets.US_ASCII).trim();
    }

    /** Gives back the descriptors of threads not among the first {@code n} of {@code alive}. */
    public void retainOnly(int[] alive, int n) {
        syscalls.retainOnly(alive, n);
    }

    /** Gives back every descriptor held. */
    public void close() {
        syscalls.close();
    }
}
