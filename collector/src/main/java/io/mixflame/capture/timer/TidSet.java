package io.mixflame.capture.timer;

import java.util.Arrays;

/**
 * A bounded set of thread ids looked up without boxing: open addressing over an array. When half full it forgets
 * everything, so what it remembers costs at most its array; a thread forgotten is only looked at again.
 */
final class TidSet {
    private final int[] slots;
    private int size;

    /** @param capacity a power of two */
    TidSet(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two");
        }
        slots = new int[capacity];
    }

    boolean contains(int tid) {
        int mask = slots.length - 1;
        for (int i = mix(tid) & mask; ; i = (i + 1) & mask) {
            int t = slots[i];
            if (t == tid) {
                return true;
            }
            if (t == 0) {
                return false;
            }
        }
    }

    /** Adds a thread id (positive). */
    void add(int tid) {
        if (tid <= 0 || contains(tid)) {
            return;
        }
        if (size >= slots.length / 2) {
            Arrays.fill(slots, 0);
            size = 0;
        }
        int mask = slots.length - 1;
        int i = mix(tid) & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = tid;
        size++;
    }

    private static int mix(int tid) {
        return tid * 0x9E3779B9;
    }
}
