package io.mixflame.capture.labels;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The distinct sets of labels threads have been in, each under a small id that a thread's label log can hold in one
 * word: 0 is no labels, and a set is reached from another by adding (or replacing) one label, as nested scopes do.
 *
 * <p>Bounded: at most {@code maxSets} sets; a set that would be one more is {@link #OTHER} (shown as
 * {@code [labels=other]}), and so is anything reached from it, so that a flood of distinct values (a request id
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
    /** Every set by its labels: a set reached by another path (other order, other nesting) keeps its one id. */
    private final ConcurrentHashMap<Content, Integer> byContent = new ConcurrentHashMap<>();
    private volatile int size = 2;
    private volatile boolean overflowed;

    /** The most sets a bound may allow: a set id shares its word with the number of a span. */
    public static final int MOST_SETS = 1 << 16;

    /** @param maxSets distinct sets at most, {@link #NONE} and {@link #OTHER} included (2 to {@link #MOST_SETS}) */
    public LabelSets(int maxSets) {
        if (maxSets < 2 || maxSets > MOST_SETS) {
            throw new IllegalArgumentException("2 to " + MOST_SETS + " sets");
        }
        this.maxSets = maxSets;
        this.keys = new String[maxSets][];
        this.values = new String[maxSets][];
        keys[NONE] = EMPTY;
        values[NONE] = EMPTY;
        keys[OTHER] = EMPTY;
        values[OTHER] = EMPTY;
        byContent.put(new Content(EMPTY, EMPTY), NONE);
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
        if (known != null) {
            return known;
        }
        Content content = step.applyTo(keys[base], values[base]);
        known = byContent.get(content);
        int id;
        if (known != null) {
            id = known;
        } else if (size >= maxSets || content.keys.length > MAX_LABELS) {
            // Past the bound no lock is taken: a flood of new values costs each caller a map look-up, no more.
            overflowed = true;
            id = OTHER;
        } else {
            id = add(content);
        }
        // Steps are kept only while there is room for them: a flood ends at OTHER without growing this map.
        if (steps.size() < maxSets * 4) {
            steps.put(step, id);
        }
        return id;
    }

    private synchronized int add(Content content) {
        Integer known = byContent.get(content);
        if (known != null) {
            return known;
        }
        if (size >= maxSets) {
            overflowed = true;
            return OTHER;
        }
        int id = size;
        keys[id] = content.keys;
        values[id] = content.values;
        byContent.put(content, id);
        size = id + 1;
        return id;
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
        /** The labels of the set {@code k}, {@code v} after this step. */
        Content applyTo(String[] k, String[] v) {
            int at = Arrays.binarySearch(k, key);
            if (at >= 0) {
                if (value == null) {
                    return new Content(remove(k, at), remove(v, at));
                }
                String[] changed = v.clone();
                changed[at] = value;
                return new Content(k, changed);
            }
            if (value == null) {
                return new Content(k, v);
            }
            int insert = -at - 1;
            return new Content(insert(k, insert, key), insert(v, insert, value));
        }
    }

    /** The labels of a set: keys sorted, values in their order. */
    private static final class Content {
        final String[] keys;
        final String[] values;
        final int hash;

        Content(String[] keys, String[] values) {
            this.keys = keys;
            this.values = values;
            this.hash = Arrays.hashCode(keys) * 31 + Arrays.hashCode(values);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Content c && c.hash == hash && Arrays.equals(c.keys, keys)
                    && Arrays.equals(c.values, values);
        }
    }
}
