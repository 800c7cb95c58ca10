package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import java.util.List;

/**
 * The anonymous read-write mappings (threads' stacks among them) that a read of the process found gone, kept
 * {@value #KEEP_NANOS} ns, {@value #CAPACITY} at most: a sample walked seconds after it was taken needs its thread's
 * stack bounds though the thread has ended and its stack been unmapped since. Newest first when asked; thread-safe.
 */
final class RecentlyUnmappedStacks {
    static final long KEEP_NANOS = 30_000_000_000L;
    static final int CAPACITY = 1024;

    private final MemoryMapping[] mappings = new MemoryMapping[CAPACITY];
    private final long[] goneAt = new long[CAPACITY];
    /** The next slot written; slots before it (modulo the capacity) are newer. */
    private int next;
    private int count;

    /**
     * Notes the mappings of {@code before} that {@code after} no longer has (both in address order), at {@code now}:
     * anonymous, readable and writable ones only, where stacks live.
     */
    synchronized void compare(List<MemoryMapping> before, List<MemoryMapping> after, long now) {
        int j = 0;
        for (MemoryMapping m : before) {
            while (j < after.size() && Long.compareUnsigned(after.get(j).start(), m.start()) < 0) {
                j++;
            }
            boolean kept = j < after.size() && after.get(j).start() == m.start() && after.get(j).end() == m.end();
            if (!kept && m.readable() && m.writable() && !m.isFile()) {
                mappings[next] = m;
                goneAt[next] = now;
                next = (next + 1) % CAPACITY;
                count = Math.min(CAPACITY, count + 1);
            }
        }
    }

    /** The most recently unmapped of them holding {@code sp}, unmapped within the time kept; else null. */
    synchronized MemoryMapping containing(long sp, long now) {
        for (int k = 1; k <= count; k++) {
            int slot = (next - k + CAPACITY) % CAPACITY;
            if (now - goneAt[slot] > KEEP_NANOS) {
                return null;
            }
            if (mappings[slot].contains(sp)) {
                return mappings[slot];
            }
        }
        return null;
    }
}
