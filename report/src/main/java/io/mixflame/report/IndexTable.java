package io.mixflame.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Values numbered densely in the order they are first asked for, each once: the tables pprof and OpenTelemetry's
 * profiles index into (strings, locations, functions, mappings, attributes, stacks). Entry 0 is reserved for the empty
 * value, as both formats require of every table (pprof's string 0 is {@code ""}, its ids start at 1; OTLP's entry 0 of
 * each table is the empty message), so the first value asked for is 1.
 *
 * <p>A table holds at most {@code maxEntries} entries, 0 included: past that it fails rather than grow without end.
 *
 * @param <T> the values, compared by {@code equals}
 */
final class IndexTable<T> {

    /**
     * Far above what the largest profile mixflame reads ({@link ReadBounds#DEFAULT}: a million frames and stacks)
     * gives any table, so reaching it means a runaway writer, not a large profile.
     */
    static final int MAX_ENTRIES = 1 << 24;

    private final Map<T, Integer> indexes = new HashMap<>();
    private final List<T> entries = new ArrayList<>();
    private final int maxEntries;

    /** A table whose entry 0 is {@code empty}, bounded by {@link #MAX_ENTRIES}. */
    IndexTable(T empty) {
        this(empty, MAX_ENTRIES);
    }

    /**
     * A table whose entry 0 is {@code empty}: asking for it gives 0. Null stands for a table whose values have no
     * empty one (frames): entry 0 is then a placeholder no value is given.
     */
    IndexTable(T empty, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("a table holds at least its entry 0");
        }
        this.maxEntries = maxEntries;
        entries.add(empty);
        if (empty != null) {
            indexes.put(empty, 0);
        }
    }

    /** The index of {@code value}, given it now if it has none yet. */
    int index(T value) {
        Integer index = indexes.get(Objects.requireNonNull(value));
        if (index == null) {
            if (entries.size() >= maxEntries) {
                throw new IllegalStateException("a profile table is over its bound of " + maxEntries + " entries");
            }
            index = entries.size();
            indexes.put(value, index);
            entries.add(value);
        }
        return index;
    }

    /** The value at {@code index}; entry 0 is the empty value (null when the table has none). */
    T get(int index) {
        return entries.get(index);
    }

    /** How many entries there are, entry 0 included: the next index given. */
    int size() {
        return entries.size();
    }

    /** Every entry in index order, entry 0 first; a view that follows the table. */
    List<T> entries() {
        return Collections.unmodifiableList(entries);
    }
}
