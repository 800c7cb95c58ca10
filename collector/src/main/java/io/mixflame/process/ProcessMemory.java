package io.mixflame.process;

import java.nio.ByteBuffer;

/**
 * Reads the memory of one process: this one or another, by pid. Every read of an address that came from a
 * stack or from another process's structures goes through here; a bad address makes a read fail, never the JVM.
 *
 * <p>Implementations are safe for use by one thread at a time; give each reading thread its own instance.
 */
public interface ProcessMemory extends MemoryWords, AutoCloseable {

    /** The process read. */
    long pid();

    /**
     * Copies up to {@code length} bytes at {@code address} into {@code target}.
     *
     * @return how many bytes were copied: {@code length}, fewer when the range runs into unmapped memory, or 0
     */
    int read(long address, byte[] target, int offset, int length);

    /**
     * Copies up to {@code length} bytes at {@code address} into {@code target} from its index {@code targetOffset}
     * (its position and limit are left as they are): for caches kept outside the Java heap.
     *
     * @return how many bytes were copied, as {@link #read(long, byte[], int, int)} counts them
     */
    default int read(long address, ByteBuffer target, int targetOffset, int length) {
        byte[] bytes = new byte[length];
        int got = read(address, bytes, 0, length);
        target.put(targetOffset, bytes, 0, Math.max(0, got));
        return got;
    }

    /**
     * Reads the word at each of {@code addresses[0, count)} into {@code words} at the same index, and says in
     * {@code read} which could be read. Scattered words of many threads (a thread list's entries) are read as few
     * requests as the system allows: each request from Java is a call into native code, and a call's return waits
     * out any safepoint the JVM is in, which with hundreds of runnable threads takes tenths of a second.
     */
    default void readWords(long[] addresses, int count, long[] words, boolean[] read) {
        for (int i = 0; i < count; i++) {
            try {
                words[i] = readLong(addresses[i]);
                read[i] = true;
            } catch (MemoryReadException e) {
                read[i] = false;
            }
        }
    }

    /**
     * Copies span {@code i} of {@code spans} ({@code lengths[i]} bytes at {@code addresses[i]}) into {@code target} at
     * {@code offsets[i]}, whole or not at all as {@code read[i]} says: as {@link #readWords}, in as few requests as
     * the system allows.
     */
    default void readSpans(long[] addresses, int[] lengths, int spans, byte[] target, int[] offsets, boolean[] read) {
        for (int i = 0; i < spans; i++) {
            read[i] = readFully(addresses[i], target, offsets[i], lengths[i]);
        }
    }

    /** Copies exactly {@code length} bytes, or returns false. */
    default boolean readFully(long address, byte[] target, int offset, int length) {
        return read(address, target, offset, length) == length;
    }

    /**
     * Reads a little-endian 64-bit word.
     *
     * @throws MemoryReadException when the address cannot be read
     */
    @Override
    long readLong(long address) throws MemoryReadException;

    /** Reads a 32-bit word. */
    int readInt(long address) throws MemoryReadException;

    /**
     * How many reads this reader has asked of the system since it was opened: each chunk of a long read and each
     * page of a read retried page by page is one. Under Wine every one is a round trip through wineserver, so this,
     * not the bytes copied, is what a sample's reading costs.
     *
     * @return the count, or -1 when this reader does not count
     */
    default long systemReads() {
        return -1;
    }

    /**
     * Writes one byte at {@code address}, through the system as reads go, so that a bad address fails the write and
     * never the JVM. Meant for the profiler's own process (a JVM flag of its own); a reader of another process may
     * refuse.
     *
     * @return whether the byte was written
     */
    default boolean writeByte(long address, byte value) {
        return false;
    }

    /** Releases native buffers; idempotent. */
    @Override
    void close();
}
