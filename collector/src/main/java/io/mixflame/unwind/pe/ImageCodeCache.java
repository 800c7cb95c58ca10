package io.mixflame.unwind.pe;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The code bytes the epilog test reads at every native frame's pc, cached in {@value #LINES} direct-mapped lines of
 * {@value #LINE} bytes held in primitive arrays: a PE frame would otherwise cost four reads of the target's memory
 * (a round trip through wineserver each, under Wine), and the same return addresses recur in every sample. An
 * image's code does not change while it stays mapped; a line is still read again after {@value #REFRESH_NANOS} ns,
 * so that a module unloaded and another mapped at its address misleads the epilog test of a few samples at most.
 */
final class ImageCodeCache {
    static final int LINE = 64;
    static final int LINES = 512;
    static final long REFRESH_NANOS = 10_000_000_000L;
    private static final long NO_LINE = 1;

    private final long[] tags = new long[LINES];
    private final long[] readAt = new long[LINES];
    private final int[] valid = new int[LINES];
    private final byte[] data = new byte[LINES * LINE];
    private final LongSupplier clock;
    private ProcessMemory filledFrom;

    ImageCodeCache(LongSupplier clock) {
        this.clock = clock;
        Arrays.fill(tags, NO_LINE);
    }

    /**
     * The little-endian word at {@code address} of {@code memory}'s process, from the cache where its lines are held.
     *
     * @throws MemoryReadException when any of its bytes cannot be read
     */
    long readLong(ProcessMemory memory, long address) throws MemoryReadException {
        if (memory != filledFrom) {
            // Another process's code at the same addresses would be other code.
            Arrays.fill(tags, NO_LINE);
            filledFrom = memory;
        }
        long now = clock.getAsLong();
        long word = 0;
        for (int i = 0; i < 8; i++) {
            long a = address + i;
            long line = a & -LINE;
            int slot = (int) ((line >>> 6) & (LINES - 1));
            if (tags[slot] != line || now - readAt[slot] >= REFRESH_NANOS) {
                valid[slot] = Math.max(0, memory.read(line, data, slot * LINE, LINE));
                tags[slot] = line;
                readAt[slot] = now;
            }
            int from = (int) (a - line);
            if (from >= valid[slot]) {
                throw new MemoryReadException(address);
            }
            word |= (data[slot * LINE + from] & 0xffL) << (8 * i);
        }
        return word;
    }
}
