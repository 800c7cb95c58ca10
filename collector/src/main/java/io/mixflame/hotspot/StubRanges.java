package io.mixflame.hotspot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Named ranges of generated code (HotSpot's stubs), sorted by start in primitive arrays so that finding the stub
 * of a pc is a binary search that allocates nothing. Ranges do not overlap; where the sources disagree the first
 * range added for an address wins.
 */
final class StubRanges {
    /** No stubs known. */
    static final StubRanges EMPTY = new Builder().build();

    private final long[] begins;
    private final long[] ends;
    private final int[] nameIndexes;
    private final String[] names;

    private StubRanges(long[] begins, long[] ends, int[] nameIndexes, String[] names) {
        this.begins = begins;
        this.ends = ends;
        this.nameIndexes = nameIndexes;
        this.names = names;
    }

    /** Number of ranges. */
    int size() {
        return begins.length;
    }

    /** The index of the range holding {@code pc}, or -1. */
    int indexOf(long pc) {
        return indexOf(begins, ends, pc);
    }

    /** The index of the range of sorted, disjoint {@code [begins[i], ends[i])} that holds {@code pc}, or -1. */
    static int indexOf(long[] begins, long[] ends, long pc) {
        int i = Arrays.binarySearch(begins, pc);
        if (i < 0) {
            i = -i - 2;
        }
        return i >= 0 && pc < ends[i] ? i : -1;
    }

    /** The index of the first range that begins at or after {@code address}, or -1. */
    int indexAtOrAfter(long address) {
        int i = Arrays.binarySearch(begins, address);
        if (i < 0) {
            i = -i - 1;
        }
        return i < begins.length ? i : -1;
    }

    long begin(int index) {
        return begins[index];
    }

    long end(int index) {
        return ends[index];
    }

    String name(int index) {
        return names[nameIndexes[index]];
    }

    /** Collects ranges in any order; names are kept once each. */
    static final class Builder {
        private long[] begins = new long[64];
        private long[] ends = new long[64];
        private int[] nameIndexes = new int[64];
        private final Map<String, Integer> nameIndex = new HashMap<>();
        private final List<String> names = new ArrayList<>();
        private int count;

        /** Adds {@code [begin, end)} named {@code name}; an empty or inverted range is ignored. */
        Builder add(long begin, long end, String name) {
            if (Long.compareUnsigned(begin, end) >= 0) {
                return this;
            }
            if (count == begins.length) {
                begins = Arrays.copyOf(begins, count * 2);
                ends = Arrays.copyOf(ends, count * 2);
                nameIndexes = Arrays.copyOf(nameIndexes, count * 2);
            }
            begins[count] = begin;
            ends[count] = end;
            Integer known = nameIndex.get(name);
            if (known == null) {
                known = names.size();
                names.add(name);
                nameIndex.put(name, known);
            }
            nameIndexes[count] = known;
            count++;
            return this;
        }

        /** Orders range indexes by their start: a class, as a lambda is a class the JVM spins in the start-up. */
        private static final class ByBegin implements Comparator<Integer> {
            private final long[] begins;

            ByBegin(long[] begins) {
                this.begins = begins;
            }

            @Override
            public int compare(Integer a, Integer b) {
                return Long.compare(begins[a], begins[b]);
            }
        }

        StubRanges build() {
            Integer[] order = new Integer[count];
            for (int i = 0; i < count; i++) {
                order[i] = i;
            }
            // Stable: of two ranges at one address, the one added first stays.
            Arrays.sort(order, new ByBegin(begins));
            long[] b = new long[count];
            long[] e = new long[count];
            int[] n = new int[count];
            int kept = 0;
            for (int k = 0; k < count; k++) {
                int i = order[k];
                if (kept > 0 && begins[i] < e[kept - 1]) {
                    continue;
                }
                b[kept] = begins[i];
                e[kept] = ends[i];
                n[kept] = nameIndexes[i];
                kept++;
            }
            return new StubRanges(Arrays.copyOf(b, kept), Arrays.copyOf(e, kept), Arrays.copyOf(n, kept),
                    names.toArray(new String[0]));
        }
    }
}
