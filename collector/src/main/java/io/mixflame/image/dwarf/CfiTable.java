package io.mixflame.image.dwarf;

import java.util.Arrays;
import java.util.List;

/**
 * The call frame information of one module, interpreted once into sorted address ranges, each pointing at an
 * interned {@link CfiRule}: about 12 bytes a range. Addresses are the module's link-time addresses.
 */
public final class CfiTable implements CallFrameInfo {
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

    @Override
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

    @Override
    public long functionStart(long address) {
        // Outside every FDE's range (the padding between functions) there is no function to name.
        if (find(address) == null) {
            return -1;
        }
        int i = Arrays.binarySearch(functionStarts, address);
        if (i < 0) {
            i = -i - 2;
        }
        return i < 0 ? -1 : functionStarts[i];
    }

    @Override
    public int ranges() {
        return starts.length;
    }

    @Override
    public int distinctRules() {
        return rules.size();
    }
}
