package io.mixflame.image;

import java.util.Arrays;

/**
 * Collects function symbols from several sources (symtab, dynsym, synthesized PLT names) into a
 * {@link SymbolTable}. Where two symbols share an address the first one added wins, so add the richest source
 * first.
 */
public final class SymbolTableBuilder {
    private long[] addresses = new long[256];
    private long[] sizes = new long[256];
    private String[] names = new String[256];
    private int count;

    /** Adds one symbol. */
    public void add(long address, long size, String name) {
        if (count == names.length) {
            int n = count * 2;
            addresses = Arrays.copyOf(addresses, n);
            sizes = Arrays.copyOf(sizes, n);
            names = Arrays.copyOf(names, n);
        }
        addresses[count] = address;
        sizes[count] = size;
        names[count] = name;
        count++;
    }

    /** Number of symbols added so far. */
    public int count() {
        return count;
    }

    /** The sorted table, one symbol per address. */
    public SymbolTable build() {
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        // Stable sort: among symbols at one address the first added stays first.
        Arrays.sort(order, (a, b) -> Long.compare(addresses[a], addresses[b]));
        long[] a = new long[count];
        long[] s = new long[count];
        String[] n = new String[count];
        int out = 0;
        for (int k = 0; k < count; k++) {
            int i = order[k];
            if (out > 0 && a[out - 1] == addresses[i]) {
                if (s[out - 1] == 0) {
                    s[out - 1] = sizes[i];
                }
                continue;
            }
            a[out] = addresses[i];
            s[out] = sizes[i];
            n[out] = names[i];
            out++;
        }
        return new SymbolTable(Arrays.copyOf(a, out), Arrays.copyOf(s, out), Arrays.copyOf(n, out));
    }
}
