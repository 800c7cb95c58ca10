package io.mixflame.capture.labels;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The distinct sets of labels threads have been in, each under a small id that a thread's label log can hold in one
 * word: 0 is no labels, and a set is reached from another by adding (or replacing) one label, as nested scopes do.
 *
 * <p>Bounded: at most {@code maxSets} sets; a set that would be one more is {@link #OTHER} (shown as
 * {@code [other labels]}), and so is anything reached from it, so that a flood of distinct values (a request id
 * used as a label) costs a fixed amount of memory and profile. Values are cut to {@link #MAX_VALUE_CHARS}.
 *
 * <p>Thread-safe: the application's threads add sets while the sampler reads them.
 */
public final class LabelSets {
    /** The id of no labels. */
    public static final int NONE = 0;
    /** The id of every set past the bound. */
    public static final int OTHER = 1;
    /** Labels in one set at most; adding another to a full set gives {@link #OTHER}. */
    public static final int MAX_LABELS = 16;
    /** Characters of a value kept; longer values are cut, so that ids with ids in them stay bounded in memory. */
    public static final int MAX_VALUE_CHARS = 128;
    /** Distinct sets kept by default. */
    public static final int DEFAULT_MAX_SETS = 1024;

    private static final String[] EMPTY = new String[0];

    private final int maxSets;
    /** Keys and values of each set, sorted by key; written under the lock before the id is published. */
    private final String[][] keys;
    private final String[][] values;
    private final ConcurrentHashMap<Step, Integer> steps = new ConcurrentHashMap<>();
    private volatile int size = 2;
    private volatile boolean overflowed;

    /** @param maxSets distinct sets at most, {@link #NONE} and {@link #OTHER} included (at least 2) */
    public LabelSets(int maxSets) {
        if (maxSets < 2) {
            throw new IllegalArgumentException("at least 2 sets");
        }
        this.maxSets = maxSets;
        this.keys = new String[maxSets][];
        this.values = new String[maxSets][];
        keys[NONE] = EMPTY;
        values[NONE] = EMPTY;
        keys[OTHER] = EMPTY;
        values[OTHER] = EMPTY;
    }

    /**
     * The id of set {@code base} with {@code key} set to {@code value}.
     *
     * @param key   a valid key ({@link LabelKeys#valid}); the caller checks it
     * @param value any text; null removes the key
     */
    public int with(int base, String key, String value) {
        if (base == OTHER) {
            return OTHER;
        }
        String kept = value == null || value.length() <= MAX_VALUE_CHARS ? value : value.substring(0, MAX_VALUE_CHARS);
        Step step = new Step(base, key, kept);
        Integer known = steps.get(step);
        return known != null ? known : add(step);
    }

    private synchronized int add(Step step) {
        Integer known = steps.get(step);
        if (known != null) {
            return known;
        }
        String[] k = keys[step.base];
        String[] v = values[step.base];
        int at = Arrays.binarySearch(k, step.key);
        String[] newKeys;
        String[] newValues;
        if (at >= 0) {
            if (step.value == null) {
                newKeys = remove(k, at);
                newValues = remove(v, at);
            } else {
                newKeys = k;
                newValues = v.clone();
                newValues[at] = step.value;
            }
        } else if (step.value == null) {
            newKeys = k;
            newValues = v;
        } else {
            int insert = -at - 1;
            newKeys = insert(k, insert, step.key);
            newValues = insert(v, insert, step.value);
        }
        int id = find(newKeys, newValues);
        if (id < 0) {
            if (size >= maxSets || newKeys.length > MAX_LABELS) {
                overflowed = true;
                id = OTHER;
            } else {
                id = size;
                keys[id] = newKeys;
                values[id] = newValues;
                size = id + 1;
            }
        }
        // Steps are kept only while there is room for them: a flood ends at OTHER without growing this map.
        if (steps.size() < maxSets * 4) {
            steps.put(step, id);
        }
        return id;
    }

    /** The id of an existing set with these labels, or -1; sets are few and made rarely, so a scan will do. */
    private int find(String[] k, String[] v) {
        for (int id = 0; id < size; id++) {
            if (id != OTHER && Arrays.equals(keys[id], k) && Arrays.equals(values[id], v)) {
                return id;
            }
        }
        return -1;
    }

    /** The keys of set {@code id}, sorted; do not modify. */
    public String[] keys(int id) {
        return keys[id];
    }

    /** The values of set {@code id}, in the order of its keys; do not modify. */
    public String[] values(int id) {
        return values[id];
    }

    /** Whether {@code id} names a set (ids come from {@link #with}). */
    public boolean known(int id) {
        return id >= 0 && id < size;
    }

    /** How many distinct sets there are, {@link #NONE} and {@link #OTHER} included. */
    public int size() {
        return size;
    }

    /** Whether some set was past the bound. */
    public boolean overflowed() {
        return overflowed;
    }

    private static String[] remove(String[] a, int at) {
        String[] r = new String[a.length - 1];
        System.arraycopy(a, 0, r, 0, at);
        System.arraycopy(a, at + 1, r, at, a.length - at - 1);
        return r;
    }

    private static String[] insert(String[] a, int at, String s) {
        String[] r = new String[a.length + 1];
        System.arraycopy(a, 0, r, 0, at);
        r[at] = s;
        System.arraycopy(a, at, r, at + 1, a.length - at);
        return r;
    }

    /** One step from a set: its id, a key and the value it takes (null: removed). */
    private static final class Step {
        final int base;
        final String key;
        final String value;
        final int hash;

        Step(int base, String key, String value) {
            this.base = base;
            this.key = key;
            this.value = value;
            this.hash = (base * 31 + key.hashCode()) * 31 + (value == null ? 0 : value.hashCode());
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Step s && s.base == base && s.key.equals(key)
                    && (value == null ? s.value == null : value.equals(s.value));
        }
    }
}
