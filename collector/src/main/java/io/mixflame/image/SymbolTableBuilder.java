package io.mixflame.image;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Collects function symbols from several sources (symtab, dynsym, synthesized PLT names) into a
 * {@link SymbolTable}. Where two symbols share an address the first one added wins, so add the richest source
 * first. Names are not read here (see {@link SymbolNames}), and the table is sorted as packed primitive keys: the
 * first walk of a process must not spend its time building strings and boxed indexes for every symbol of libjvm.
 */
public final class SymbolTableBuilder {
    private static final int INDEX_BITS = 22;
    private static final int MAX_SYMBOLS = 1 << INDEX_BITS;

    private final SymbolNames names = new SymbolNames();
    private long[] addresses = new long[256];
    private long[] sizes = new long[256];
    private long[] nameRefs = new long[256];
    private int count;

    /** Registers the string table names are found in; returns its number for {@link #add}. */
    public int strings(ByteBuffer table) {
        return names.table(table);
    }

    /**
     * Adds one symbol whose name starts at {@code nameOffset} of string table {@code table} ({@link #strings}).
     *
     * @param plt whether it is a PLT stub (its name gets {@code @plt})
     */
    public void add(long address, long size, int table, long nameOffset, boolean plt) {
        if (count == MAX_SYMBOLS) {
            return;
        }
        if (count == addresses.length) {
            int n = Math.min(MAX_SYMBOLS, count * 2);
            addresses = Arrays.copyOf(addresses, n);
            sizes = Arrays.copyOf(sizes, n);
            nameRefs = Arrays.copyOf(nameRefs, n);
        }
        addresses[count] = address;
        sizes[count] = size;
        nameRefs[count] = SymbolNames.reference(table, plt ? SymbolNames.PLT : 0, nameOffset);
        count++;
    }

    /**
     * Makes room for {@code more} symbols at once, when a source knows how many it may add (a symbol table's
     * entries): growing by doubling through libjvm's tens of thousands left twice their size as garbage in the
     * application's heap.
     */
    public void reserve(int more) {
        int wanted = (int) Math.min(MAX_SYMBOLS, (long) count + Math.max(0, more));
        if (wanted > addresses.length) {
            addresses = Arrays.copyOf(addresses, wanted);
            sizes = Arrays.copyOf(sizes, wanted);
            nameRefs = Arrays.copyOf(nameRefs, wanted);
        }
    }

    /** Number of symbols added so far. */
    public int count() {
        return count;
    }

    /** The sorted table, one symbol per address, outside the Java heap. */
    public SymbolTable build() {
        int[] order = order();
        SymbolTable.Rows rows = new SymbolTable.Rows(count);
        int out = 0;
        long lastAddress = 0;
        for (int k = 0; k < count; k++) {
            int i = order[k];
            if (out > 0 && lastAddress == addresses[i]) {
                if (rows.size(out - 1) == 0) {
                    rows.setSize(out - 1, sizes[i]);
                }
                continue;
            }
            rows.set(out, addresses[i], sizes[i], nameRefs[i]);
            lastAddress = addresses[i];
            out++;
        }
        return new SymbolTable(rows, out, names);
    }

    /**
     * The symbols' indexes by address, the first added first among equal addresses: each symbol as one long, its
     * address less the lowest in the high bits and its index in the low ones, sorted as primitives.
     */
    private int[] order() {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            min = Math.min(min, addresses[i]);
            max = Math.max(max, addresses[i]);
        }
        int[] order = new int[count];
        if (count == 0) {
            return order;
        }
        long span = max - min;
        if (span < 0 || (span >>> (63 - INDEX_BITS)) != 0) {
            // Addresses too far apart to pack (not seen in real modules): sort indexes the slow way.
            Integer[] boxed = new Integer[count];
            for (int i = 0; i < count; i++) {
                boxed[i] = i;
            }
            Arrays.sort(boxed, (x, y) -> Long.compareUnsigned(addresses[x], addresses[y]));
            for (int i = 0; i < count; i++) {
                order[i] = boxed[i];
            }
            return order;
        }
        long[] packed = new long[count];
        for (int i = 0; i < count; i++) {
            packed[i] = ((addresses[i] - min) << INDEX_BITS) | i;
        }
        Arrays.sort(packed);
        for (int i = 0; i < count; i++) {
            order[i] = (int) (packed[i] & (MAX_SYMBOLS - 1));
        }
        return order;
    }
}
