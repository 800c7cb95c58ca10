package io.mixflame.unwind;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A thread's stack as the walker reads it: first the copy taken with the sample (perf's stack dump, or bytes read
 * at capture time), then the process's memory for anything outside that copy.
 */
public final class StackMemory {
    private final ProcessMemory process;
    private ByteBuffer copy = ByteBuffer.allocate(0);
    private long copyStart;
    private int copyLength;

    /** A view that reads through {@code process} when an address is outside the copy. */
    public StackMemory(ProcessMemory process) {
        this.process = process;
    }

    /** Sets the copy: {@code length} bytes of {@code bytes} are the memory at {@code start}; not copied again. */
    public void setCopy(long start, byte[] bytes, int length) {
        this.copy = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        this.copyStart = start;
        this.copyLength = Math.min(length, bytes.length);
    }

    /** Drops the copy; reads go to the process. */
    public void clearCopy() {
        copyLength = 0;
    }

    /** The process's memory, for reads that are not of the stack. */
    public ProcessMemory process() {
        return process;
    }

    /** The first address above the copy taken with the sample (its start when there is none). */
    public long copyEnd() {
        return copyStart + copyLength;
    }

    /** Reads a 64-bit word. */
    public long readLong(long address) throws MemoryReadException {
        long off = address - copyStart;
        if (off >= 0 && off <= copyLength - 8L) {
            return copy.getLong((int) off);
        }
        return process.readLong(address);
    }

    /**
     * Copies {@code length} bytes at {@code address} into {@code out}: from the stack's copy where it holds them all,
     * else from the process. Returns how many bytes could be read.
     */
    public int read(long address, byte[] out, int offset, int length) {
        long off = address - copyStart;
        if (off >= 0 && off <= copyLength - (long) length) {
            copy.get((int) off, out, offset, length);
            return length;
        }
        return process.read(address, out, offset, length);
    }
}
