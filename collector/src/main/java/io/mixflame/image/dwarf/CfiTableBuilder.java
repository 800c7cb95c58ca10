package io.mixflame.image.dwarf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects rows from the CFI interpreter and sorts them into a {@link CfiTable}, interning equal rules. */
final class CfiTableBuilder implements RowSink {
    private final Map<CfiRule, Integer> ruleIds = new HashMap<>();
    private final List<CfiRule> rules = new ArrayList<>();
    private long[] starts = new long[1024];
    private int[] ids = new int[1024];
    private long[] functions = new long[256];
    private int count;
    private int functionCount;

    @Override
    public void row(long start, CfiRule rule) {
        int id = rule == null ? -1 : ruleIds.computeIfAbsent(rule, r -> {
            rules.add(r);
            return rules.size() - 1;
        });
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ids = Arrays.copyOf(ids, count * 2);
        }
        starts[count] = start;
        ids[count] = id;
        count++;
    }

    @Override
    public void function(long start) {
        if (functionCount == functions.length) {
            functions = Arrays.copyOf(functions, functionCount * 2);
        }
        functions[functionCount++] = start;
    }

    CfiTable build() {
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        // At one address a real rule wins over the gap that ends the previous FDE.
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(starts[a], starts[b]);
            return c != 0 ? c : Integer.compare(ids[b] < 0 ? 0 : 1, ids[a] < 0 ? 0 : 1);
        });
        long[] s = new long[count];
        int[] r = new int[count];
        int out = 0;
        for (int k = 0; k < count; k++) {
            int i = order[k];
            if (out > 0 && s[out - 1] == starts[i]) {
                continue;
            }
            if (out > 0 && r[out - 1] == ids[i]) {
                continue;
            }
            s[out] = starts[i];
            r[out] = ids[i];
            out++;
        }
        long[] f = Arrays.copyOf(functions, functionCount);
        Arrays.sort(f);
        return new CfiTable(Arrays.copyOf(s, out), Arrays.copyOf(r, out), rules, f);
    }
}
