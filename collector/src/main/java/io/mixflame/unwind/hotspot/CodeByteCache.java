package io.mixflame.unwind.hotspot;

import io.mixflame.process.ProcessMemory;
import java.util.function.LongSupplier;

/**
 * Bytes of generated code, cached in {@value #LINES} direct-mapped lines of {@value #LINE} bytes held in primitive
 * arrays: the innermost frame of every sample reads the code at its pc, and the same few pcs recur. A line is read
 * again after {@value #REFRESH_NANOS} ns, since the code cache frees blocks and fills them with other code; a
 * byte that changed in between misleads one decision about one frame at most.
 */
final class CodeByteCache {
    static final int LINE = 64;
    static final int LINES = 1024;
    static final long REFRESH_NANOS = 1_000_000_000L;
    private static final long NO_LINE = 1;

    private final long[] tags = new long[LINES];
    private final long[] readAt = new long[LINES];
    private final int[] valid = new int[LINES];
    private final byte[] data = new byte[LINES * LINE];
    private final LongSupplier clock;

    CodeByteCache(LongSupplier clock) {
        this.clock = clock;
        java.util.Arrays.fill(tags, NO_LINE);
    }

    /**
     * Copies up to {@code length} bytes of code at {@code address} into {@code out}; returns how many could be read
     * (fewer where the code runs into unreadable memory).
     */
    int copy(ProcessMemory memory, long address, byte[] out, int length) {
        int done = 0;
        long now = clock.getAsLong();
        while (done < length) {
            long a = address + done;
            long line = a & -LINE;
            int slot = (int) ((line >>> 6) & (LINES - 1));
            if (tags[slot] != line || now - readAt[slot] >= REFRESH_NANOS) {
                valid[slot] = Math.max(0, memory.read(line, data, slot * LINE, LINE));
                tags[slot] = line;
                readAt[slot] = now;
            }
            int from = (int) (a - line);
            int n = Math.min(length - done, valid[slot] - from);
            if (n <= 0) {
                break;
            }
            System.arraycopy(data, slot * LINE + from, out, done, n);
            done += n;
            if (from + n < LINE) {
                break;
            }
        }
        return done;
    }
}
