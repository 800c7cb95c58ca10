package io.mixflame.profile;

import java.util.Arrays;

/**
 * Frame ids by frame value, for the frames a profile has not met under the same object before. Not a
 * {@link java.util.HashMap}, for the reason {@link StackCountTable} gives: the profiler's frames must not enter the
 * type profile of the service's own map code. Open addressing; no removal but {@link #clear}. Not thread-safe.
 */
final class FrameIdTable {
    private Frame[] keys = new Frame[256];
    private int[] values = new int[256];
    private int size;

    /** The id of a frame equal to {@code frame}, or -1. */
    int get(Frame frame) {
        int mask = keys.length - 1;
        for (int i = spread(frame.hashCode()) & mask; ; i = (i + 1) & mask) {
            Frame k = keys[i];
            if (k == null) {
                return -1;
            }
            if (k == frame || k.equals(frame)) {
                return values[i];
            }
        }
    }

    /** Records {@code id} (not negative) for a frame not held yet. */
    void put(Frame frame, int id) {
        if ((size + 1) * 2 > keys.length) {
            Frame[] oldKeys = keys;
            int[] oldValues = values;
            keys = new Frame[oldKeys.length * 2];
            values = new int[oldKeys.length * 2];
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != null) {
                    insert(oldKeys[i], oldValues[i]);
                }
            }
        }
        insert(frame, id);
        size++;
    }

    int size() {
        return size;
    }

    /** Forgets every frame. */
    void clear() {
        Arrays.fill(keys, null);
        size = 0;
    }

    private void insert(Frame frame, int id) {
        int mask = keys.length - 1;
        int i = spread(frame.hashCode()) & mask;
        while (keys[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = frame;
        values[i] = id;
    }

    private static int spread(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
