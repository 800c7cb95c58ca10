package io.mixflame.cache;

import java.util.Arrays;

/**
 * A bounded map from a {@code long} key (an address) to a value, for the sampler's per-frame lookups: open
 * addressing over primitive keys, so that a hit neither boxes nor allocates. When full it starts empty again; every
 * entry can be computed anew from the key, only at a cost. Not thread-safe: one per walking thread.
 *
 * @param <V> the values
 */
public final class LongKeyedCache<V> {
    private static final long EMPTY = 0;

    private final long[] keys;
    private final Object[] values;
    private final int mask;
    private final int limit;
    private int size;

    /** @param capacity the number of entries at most (rounded up to a power of two for the table, which is twice that) */
    public LongKeyedCache(int capacity) {
        int table = Integer.highestOneBit(Math.max(16, capacity) * 2 - 1) << 1;
        keys = new long[table];
        values = new Object[table];
        mask = table - 1;
        limit = table / 2;
    }

    /** The value for {@code key}, or null. The key 0 is never stored. */
    @SuppressWarnings("unchecked")
    public V get(long key) {
        if (key == EMPTY) {
            return null;
        }
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return (V) values[i];
            }
            if (k == EMPTY) {
                return null;
            }
        }
    }

    /** Stores {@code value} for {@code key} (not 0), emptying the cache first when it is full. */
    public void put(long key, V value) {
        if (key == EMPTY) {
            return;
        }
        if (size >= limit) {
            clear();
        }
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                values[i] = value;
                return;
            }
            if (k == EMPTY) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
        }
    }

    /** Forgets every entry. */
    public void clear() {
        Arrays.fill(keys, EMPTY);
        Arrays.fill(values, null);
        size = 0;
    }

    /** Entries held. */
    public int size() {
        return size;
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
