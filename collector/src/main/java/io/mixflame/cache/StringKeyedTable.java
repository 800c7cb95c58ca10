package io.mixflame.cache;

import java.util.function.BiConsumer;

/**
 * A growing map from a {@code String} to a value, for tables the profiler fills by the thousand at start (HotSpot's
 * self-description). Not a {@link java.util.HashMap}: the profiler lives in the service's JVM, whose {@code HashMap}
 * code is shared with the service; thousands of the profiler's puts with its own key types at start made C2 compile
 * {@code HashMap.putVal} for those types, then throw the code away when the service's keys arrived, and compile it
 * again. Here only {@code String}'s final {@code hashCode} and {@code equals} are called. Open addressing, linear
 * probing; no removal. Not thread-safe: filled by one thread, then read.
 *
 * @param <V> the values
 */
public final class StringKeyedTable<V> {
    private String[] keys;
    private Object[] values;
    private int size;

    /** An empty table. */
    public StringKeyedTable() {
        keys = new String[64];
        values = new Object[64];
    }

    /** The value for {@code key}, or null. */
    @SuppressWarnings("unchecked")
    public V get(String key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            String k = keys[i];
            if (k == null) {
                return null;
            }
            if (k.equals(key)) {
                return (V) values[i];
            }
        }
    }

    /** Stores {@code value} (not null) for {@code key}, replacing what was there. */
    public void put(String key, V value) {
        if (value == null) {
            throw new IllegalArgumentException("null value for " + key);
        }
        if (size * 2 >= keys.length) {
            grow();
        }
        if (insert(keys, values, key, value)) {
            size++;
        }
    }

    /** Entries held. */
    public int size() {
        return size;
    }

    /** Calls {@code action} for every entry, in no particular order. */
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<String, V> action) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                action.accept(keys[i], (V) values[i]);
            }
        }
    }

    private void grow() {
        String[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new String[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(keys, values, oldKeys[i], oldValues[i]);
            }
        }
    }

    /** @return whether the key was new */
    private static boolean insert(String[] keys, Object[] values, String key, Object value) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            String k = keys[i];
            if (k == null) {
                keys[i] = key;
                values[i] = value;
                return true;
            }
            if (k.equals(key)) {
                values[i] = value;
                return false;
            }
        }
    }

    private static int slot(String key, int mask) {
        int h = key.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }
}
