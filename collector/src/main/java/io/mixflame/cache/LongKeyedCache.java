package io.mixflame.cache;

import java.util.Arrays;

/**
 * A bounded map from a {@code long} key (an address) to a value, for the sampler's per-frame lookups: open
 * addressing over primitive keys, so that a hit neither boxes nor allocates. The table starts small and doubles as
 * entries come, up to the capacity: a profile that sees a few hundred frames keeps a few kilobytes, not the
 * megabytes of a full table, and its lookups touch fewer cache lines. When full at the capacity it starts empty
 * again; every entry can be computed anew from the key, only at a cost. Not thread-safe: one per walking thread.
 *
 * @param <V> the values
 */
public final class LongKeyedCache<V> {
    private static final long EMPTY = 0;

    private static final int FIRST_TABLE = 64;

    private final int maxTable;
    private long[] keys;
    private Object[] values;
    private int mask;
    private int limit;
    private int size;

    /** @param capacity the number of entries at most (rounded up to a power of two for the table, which is twice that) */
    public LongKeyedCache(int capacity) {
        maxTable = Integer.highestOneBit(Math.max(16, capacity) * 2 - 1) << 1;
        allocate(Math.min(FIRST_TABLE, maxTable));
    }

    private void allocate(int table) {
        keys = new long[table];
        values = new Object[table];
        mask = table - 1;
        limit = table / 2;
        size = 0;
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
            if (keys.length < maxTable) {
                grow();
            } else {
                clear();
            }
        }
        insert(key, value);
    }

    private void insert(long key, Object value) {
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

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        allocate(keys.length * 2);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                insert(oldKeys[i], oldValues[i]);
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
