package io.mixflame.unwind;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Bytes of a process's code, cached in direct-mapped lines of {@value #LINE} bytes held outside the Java heap: the
 * unwinders read code at the pcs of every sample (a prologue or epilogue to decode, an epilog to test), the same
 * pcs recur, and each read of another process is a system call (a wineserver round trip under Wine). A line is read
 * again once its period has passed, since code can be freed and replaced (the JIT's code cache, a module unloaded
 * and another mapped at its address): a byte that changed in between misleads one decision about one frame at
 * most. Lines filled from one process are never served for another. A line may also be filled for an owner, an
 * object standing for the code it belongs to (a JIT code blob as the code cache's index last confirmed it): it is
 * then served to that owner alone, for {@value #OWNED_PERIODS} periods, since the owner's own check has already
 * told whether the code at that address is still the same — reading the line again each period as well was, under
 * Wine, a round trip through wineserver for most samples of compiled code.
 */
public final class CodeLineCache {
    /** Bytes a line holds. */
    public static final int LINE = 64;
    private static final long NO_LINE = 1;
    /** How many periods a line filled for an owner is served to that owner before it is read again all the same. */
    static final int OWNED_PERIODS = 30;

    private final int lines;
    private final long refreshNanos;
    // Made at the first read: an unwinder that never meets its kind of code (PE code on Linux) keeps none of them.
    private long[] tags;
    private long[] readAt;
    private int[] valid;
    private Object[] owners;
    /** The lines' bytes, outside the Java heap. */
    private ByteBuffer data;
    private final byte[] word = new byte[8];
    private final LongSupplier clock;
    private ProcessMemory filledFrom;

    /**
     * @param lines        how many lines, a power of two
     * @param refreshNanos how long a line is served before it is read again
     * @param clock        the time in nanoseconds ({@link io.mixflame.cache.MonotonicClock#NANOS}; tests move their own)
     */
    public CodeLineCache(int lines, long refreshNanos, LongSupplier clock) {
        if (Integer.bitCount(lines) != 1) {
            throw new IllegalArgumentException("lines must be a power of two: " + lines);
        }
        this.lines = lines;
        this.refreshNanos = refreshNanos;
        this.clock = clock;
    }

    /** How many lines the cache holds. */
    public int lines() {
        return lines;
    }

    /**
     * Copies up to {@code length} bytes of code at {@code address} into {@code out}; returns how many could be read
     * (fewer where the code runs into unreadable memory).
     */
    public int copy(ProcessMemory memory, long address, byte[] out, int length) {
        return copy(memory, address, out, length, null);
    }

    /**
     * As {@link #copy(ProcessMemory, long, byte[], int)}, for code that belongs to {@code owner} (null: none): lines
     * filled for this owner are kept longer, lines filled for another are read again.
     */
    public int copy(ProcessMemory memory, long address, byte[] out, int length, Object owner) {
        if (tags == null) {
            tags = new long[lines];
            readAt = new long[lines];
            valid = new int[lines];
            owners = new Object[lines];
            data = ByteBuffer.allocateDirect(lines * LINE);
            Arrays.fill(tags, NO_LINE);
        }
        if (memory != filledFrom) {
            Arrays.fill(tags, NO_LINE);
            Arrays.fill(owners, null);
            filledFrom = memory;
        }
        int done = 0;
        long now = clock.getAsLong();
        while (done < length) {
            long a = address + done;
            long line = a & -LINE;
            int slot = (int) ((line >>> 6) & (lines - 1));
            long age = now - readAt[slot];
            boolean fresh = tags[slot] == line && owners[slot] == owner
                    && (owner == null ? age < refreshNanos : age < OWNED_PERIODS * refreshNanos);
            if (!fresh) {
                valid[slot] = Math.max(0, memory.read(line, data, slot * LINE, LINE));
                tags[slot] = line;
                readAt[slot] = now;
                owners[slot] = owner;
            }
            int from = (int) (a - line);
            int n = Math.min(length - done, valid[slot] - from);
            if (n <= 0) {
                break;
            }
            data.get(slot * LINE + from, out, done, n);
            done += n;
            if (from + n < LINE) {
                break;
            }
        }
        return done;
    }

    /**
     * The little-endian word of code at {@code address}.
     *
     * @throws MemoryReadException when any of its bytes cannot be read
     */
    public long readLong(ProcessMemory memory, long address) throws MemoryReadException {
        if (copy(memory, address, word, 8) < 8) {
            throw new MemoryReadException(address);
        }
        long w = 0;
        for (int i = 7; i >= 0; i--) {
            w = w << 8 | (word[i] & 0xffL);
        }
        return w;
    }
}
