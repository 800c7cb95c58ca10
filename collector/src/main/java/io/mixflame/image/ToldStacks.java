package io.mixflame.image;

import io.mixflame.process.MemoryMapping;

/**
 * The stacks threads told as they started, the last {@value #CAPACITY} of them, newest first when asked: a thread's
 * stack pointers are known to lie there even where no read of the process's maps saw its stack (it started after one
 * read and ended, its stack unmapped, before the next). A thread's start is told again if its stack is reused, so
 * the newest holding an sp is the one asked for. Thread-safe.
 */
final class ToldStacks {
    static final int CAPACITY = 8192;

    private final long[] lows = new long[CAPACITY];
    private final long[] highs = new long[CAPACITY];
    /** The next slot written; slots before it (modulo the capacity) are newer. */
    private int next;
    private int count;

    /** Notes a stack {@code [low, high)} a thread told as it started. */
    synchronized void told(long low, long high) {
        lows[next] = low;
        highs[next] = high;
        next = (next + 1) % CAPACITY;
        count = Math.min(CAPACITY, count + 1);
    }

    /** The newest told stack holding {@code sp}, as a readable and writable mapping; else null. */
    synchronized MemoryMapping containing(long sp) {
        for (int k = 1; k <= count; k++) {
            int slot = (next - k + CAPACITY) % CAPACITY;
            if (Long.compareUnsigned(sp, lows[slot]) >= 0 && Long.compareUnsigned(sp, highs[slot]) < 0) {
                return new MemoryMapping(lows[slot], highs[slot], true, true, false, 0, 0, "");
            }
        }
        return null;
    }
}
