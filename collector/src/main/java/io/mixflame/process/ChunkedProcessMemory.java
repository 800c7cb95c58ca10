package io.mixflame.process;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;

/**
 * The part of a {@link ProcessMemory} every system shares: reads cut into chunks copied by the system into one native
 * buffer, a short chunk ending the read (the rest of the range is not mapped), and words read the same way. A
 * system's reader says only how one chunk is copied.
 */
public abstract class ChunkedProcessMemory implements ProcessMemory {
    /** Bytes copied by one system call at most. */
    protected static final int CHUNK = 64 * 1024;

    /** Where each chunk is copied to. */
    protected final Memory buffer = new Memory(CHUNK);
    /** The buffer as one view, made once: copies into buffers outside the heap go from it. */
    private final ByteBuffer bufferView = buffer.getByteBuffer(0, CHUNK);
    private boolean closed;
    private long systemReads;

    /**
     * Copies up to {@code length} ({@code <= CHUNK}) bytes at {@code address} of the process into {@link #buffer}.
     *
     * @return how many bytes were readable from {@code address} on, 0 when none
     */
    protected abstract int readChunk(long address, int length);

    /** Counts one read asked of the system: a system's reader calls this at each of its system calls. */
    protected final void countSystemRead() {
        systemReads++;
    }

    @Override
    public final long systemReads() {
        return systemReads;
    }

    /** Releases what the system's reader holds besides the buffer. */
    protected abstract void release();

    @Override
    public final int read(long address, byte[] target, int offset, int length) {
        return readChunks(address, target, null, offset, length);
    }

    @Override
    public final int read(long address, ByteBuffer target, int targetOffset, int length) {
        return readChunks(address, null, target, targetOffset, length);
    }

    /** Reads chunk by chunk into {@code array}, or where it is null into {@code buffer}; stops at a short chunk. */
    private int readChunks(long address, byte[] array, ByteBuffer buffer, int offset, int length) {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        int done = 0;
        while (done < length) {
            int n = Math.min(CHUNK, length - done);
            int got = address + done == 0 || address + done + n < address + done ? 0 : readChunk(address + done, n);
            if (got <= 0) {
                break;
            }
            if (array != null) {
                this.buffer.read(0, array, offset + done, got);
            } else {
                buffer.put(offset + done, bufferView, 0, got);
            }
            done += got;
            if (got < n) {
                break;
            }
        }
        return done;
    }

    @Override
    public final long readLong(long address) throws MemoryReadException {
        if (address == 0 || readChunk(address, 8) != 8) {
            throw new MemoryReadException(address);
        }
        return buffer.getLong(0);
    }

    @Override
    public final int readInt(long address) throws MemoryReadException {
        if (address == 0 || readChunk(address, 4) != 4) {
            throw new MemoryReadException(address);
        }
        return buffer.getInt(0);
    }

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            release();
            buffer.close();
        }
    }
}
