package io.mixflame.unwind;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.MemoryWords;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A thread's stack as the walker reads it: first the copy taken with the sample (perf's stack dump, or bytes read
 * at capture time), then the process's memory for anything outside that copy.
 */
public final class StackMemory implements MemoryWords {
    private final ProcessMemory process;
    private ByteBuffer copy = ByteBuffer.allocate(0);
    private long copyStart;
    private int copyLength;
    /** The end of the copy's stack region, once known; reads between the copy's end and it set {@link #aboveCopy}. */
    private long stackHigh;
    private boolean aboveCopy;

    /** A view that reads through {@code process} when an address is outside the copy. */
    public StackMemory(ProcessMemory process) {
        this.process = process;
    }

    /** Sets the copy: {@code length} bytes of {@code bytes} are the memory at {@code start}; not copied again. */
    public void setCopy(long start, byte[] bytes, int length) {
        setCopy(start, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN), length);
    }

    /**
     * Sets the copy from a little-endian buffer read by absolute index (its position is ignored), on the heap or
     * not; kept, not copied.
     */
    public void setCopy(long start, ByteBuffer littleEndian, int length) {
        this.copy = littleEndian;
        this.copyStart = start;
        this.copyLength = Math.min(length, littleEndian.capacity());
        this.stackHigh = 0;
        this.aboveCopy = false;
    }

    /** Drops the copy; reads go to the process. */
    public void clearCopy() {
        copyLength = 0;
        stackHigh = 0;
        aboveCopy = false;
    }

    /**
     * Sets the end of the stack region the copy was taken from, so that reads of that stack above the copy can be
     * told from reads of other memory; the walker sets it when it finds the region.
     */
    public void setStackHigh(long high) {
        stackHigh = high;
    }

    /**
     * Whether a read since the copy was set fell above the copy's end but inside its stack: the walk needed more of
     * the stack than was copied and read the rest live, as it is now rather than as it was at the sample. A walk that
     * then broke would likely have gone through with a larger copy.
     */
    public boolean readAboveCopy() {
        return aboveCopy;
    }

    /** The process's memory, for reads that are not of the stack. */
    public ProcessMemory process() {
        return process;
    }

    /** The first address above the copy taken with the sample (its start when there is none). */
    public long copyEnd() {
        return copyStart + copyLength;
    }

    /**
     * Whether the copy taken with the sample holds all {@code length} bytes at {@code address}: only then does a read
     * there say what the stack was at the sample rather than what it is now.
     */
    public boolean copyHolds(long address, int length) {
        long off = address - copyStart;
        return off >= 0 && off <= copyLength - (long) length;
    }

    /** Reads a 64-bit word. */
    @Override
    public long readLong(long address) throws MemoryReadException {
        long off = address - copyStart;
        if (off >= 0 && off <= copyLength - 8L) {
            return copy.getLong((int) off);
        }
        noteLiveRead(address);
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
        noteLiveRead(address + length - 1);
        return process.read(address, out, offset, length);
    }

    /** Notes a read of the live stack above the copy; {@code last} is the read's last byte. */
    private void noteLiveRead(long last) {
        if (copyLength > 0 && Long.compareUnsigned(last, copyEnd()) >= 0 && Long.compareUnsigned(last, stackHigh) < 0) {
            aboveCopy = true;
        }
    }
}
