package io.mixflame.image;

import io.mixflame.cache.OffHeapArray;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Function symbols of one module sorted by address, for finding the function that holds an address. Addresses
 * are the module's own (link-time) virtual addresses; callers subtract the load bias first. The rows (address,
 * size, where the name lies) are outside the Java heap: libjvm alone has some 60 000 symbols, a megabyte and a half
 * that the application's collector would otherwise copy and count; only the names made for frames are Java objects.
 */
public final class SymbolTable {
    /** A table without symbols. */
    public static final SymbolTable EMPTY = new SymbolTable(new Rows(0), 0, new SymbolNames());

    /** Each symbol's address, size and name reference, three longs a symbol. */
    static final class Rows {
        private final OffHeapArray longs;

        Rows(int symbols) {
            longs = new OffHeapArray(Long.BYTES, Math.multiplyExact(Math.max(1, symbols), 3));
        }

        void set(int index, long address, long size, long name) {
            longs.setLong(3 * index, address);
            longs.setLong(3 * index + 1, size);
            longs.setLong(3 * index + 2, name);
        }

        void setSize(int index, long size) {
            longs.setLong(3 * index + 1, size);
        }

        long address(int index) {
            return longs.getLong(3 * index);
        }

        long size(int index) {
            return longs.getLong(3 * index + 1);
        }

        long name(int index) {
            return longs.getLong(3 * index + 2);
        }
    }

    private final Rows rows;
    private final int count;
    private final SymbolNames nameSource;
    /**
     * Demangled names of the symbols frames were named by, filled on first use; a racy fill is harmless since every
     * writer writes the same string. A map, not an array as long as the table: few symbols are ever shown.
     */
    private final Map<Integer, String> displayNames = new ConcurrentHashMap<>();

    /** Takes {@code count} sorted rows; see {@link SymbolTableBuilder}. */
    SymbolTable(Rows rows, int count, SymbolNames nameSource) {
        this.rows = rows;
        this.count = count;
        this.nameSource = nameSource;
    }

    /** Number of symbols. */
    public int size() {
        return count;
    }

    /**
     * The index of the symbol that holds {@code address}: the last symbol at or below it, if the address is within
     * its size (or the symbol has no size, as hand-written assembly often has not); -1 when none holds it.
     */
    public int indexOf(long address) {
        int lo = 0;
        int hi = count - 1;
        int i = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (rows.address(mid) <= address) {
                i = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (i < 0) {
            return -1;
        }
        long size = rows.size(i);
        if (size != 0 && address - rows.address(i) >= size) {
            return -1;
        }
        return i;
    }

    /** The raw (possibly mangled) name of a symbol. */
    public String name(int index) {
        return nameSource.read(rows.name(index));
    }

    /**
     * The name a symbolizer made of symbol {@code index} for users (demangled), or null before one did: kept here so
     * that every walker of every process shares the work.
     */
    public String displayName(int index) {
        return displayNames.get(index);
    }

    /** Keeps the name made for users of symbol {@code index}. */
    public void setDisplayName(int index, String name) {
        displayNames.put(index, name);
    }

    /** The address of a symbol. */
    public long address(int index) {
        return rows.address(index);
    }
}
