package io.mixflame.unwind.dwarf;

import java.util.Arrays;
import java.util.List;

/**
 * The call frame information of one module, interpreted once into sorted address ranges, each pointing at an
 * interned {@link CfiRule}: about 12 bytes a range. Addresses are the module's link-time addresses.
 */
public final class CfiTable {
    /** A table that covers nothing. */
    public static final CfiTable EMPTY = new CfiTable(new long[0], new int[0], List.of(), new long[0]);

    private final long[] starts;
    private final int[] ruleIds;
    private final List<CfiRule> rules;
    private final long[] functionStarts;

    /** Sorted starts; rule id -1 marks a gap that no FDE covers; the sorted starts of the FDEs. */
    CfiTable(long[] starts, int[] ruleIds, List<CfiRule> rules, long[] functionStarts) {
        this.starts = starts;
        this.ruleIds = ruleIds;
        this.rules = List.copyOf(rules);
        this.functionStarts = functionStarts;
    }

    /** The rule covering an address, or null. */
    public CfiRule find(long address) {
        int i = Arrays.binarySearch(starts, address);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0 || ruleIds[i] < 0) {
            return null;
        }
        return rules.get(ruleIds[i]);
    }

    /** The start of the function (the FDE) covering an address, or -1; only meaningful where {@link #find} finds a rule. */
    public long functionStart(long address) {
        int i = Arrays.binarySearch(functionStarts, address);
        if (i < 0) {
            i = -i - 2;
        }
        return i < 0 ? -1 : functionStarts[i];
    }

    /** Number of ranges. */
    public int ranges() {
        return starts.length;
    }

    /** Number of distinct rules. */
    public int distinctRules() {
        return rules.size();
    }
}
