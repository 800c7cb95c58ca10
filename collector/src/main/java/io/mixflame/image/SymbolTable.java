package io.mixflame.image;

import io.mixflame.cache.OffHeapArray;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Function symbols of one module sorted by address, for finding the function that holds an address. Addresses
 * are the module's own (link-time) virtual addresses; callers subtract the load bias first. The rows (address,
 * size, where the name lies) are outside the Java heap: libjvm alone has some 60 000 symbols, a megabyte and a half
 * that the application's collector would otherwise copy and count; only the names made for frames are Java objects.
 * The rows may also be a module index's, mapped from a file that every JVM on the host shares ({@link #mapped}).
 */
public final class SymbolTable {
    /** A table without symbols. */
    public static final SymbolTable EMPTY = new SymbolTable(new Rows(0), 0, new SymbolNames());

    /** Bytes of one symbol's row: its address, size and name reference, as three longs. */
    public static final int ROW_BYTES = 3 * Long.BYTES;

    /** Each symbol's address, size and name reference, three longs a symbol. */
    static final class Rows {
        private final OffHeapArray longs;

        Rows(int symbols) {
            longs = new OffHeapArray(Long.BYTES, Math.multiplyExact(Math.max(1, symbols), 3));
        }

        Rows(OffHeapArray longs) {
            this.longs = longs;
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

    /**
     * A table over rows laid out as {@link #copyRows} writes them (in {@code rowBytes}' byte order, from its position
     * to its limit), read where they lie: a module index mapped from a file is not copied. The rows are checked
     * first, as a file's bytes may be anything: sorted by address, one symbol per address, every name reference
     * naming one of {@code stringTables}.
     *
     * @param stringTables the string tables the rows' name references number, in their order
     * @throws IllegalArgumentException when the rows are not a symbol table's
     */
    public static SymbolTable mapped(ByteBuffer rowBytes, List<ByteBuffer> stringTables) {
        if (rowBytes.remaining() % ROW_BYTES != 0) {
            throw new IllegalArgumentException(rowBytes.remaining() + " bytes are not whole rows");
        }
        int count = rowBytes.remaining() / ROW_BYTES;
        Rows rows = new Rows(OffHeapArray.readOnly(rowBytes, Long.BYTES));
        SymbolNames names = new SymbolNames(stringTables);
        for (int i = 0; i < count; i++) {
            if (i > 0 && rows.address(i) <= rows.address(i - 1)) {
                throw new IllegalArgumentException("rows not sorted at symbol " + i);
            }
            if (!names.isValid(rows.name(i))) {
                throw new IllegalArgumentException("symbol " + i + " names no known string table");
            }
        }
        return new SymbolTable(rows, count, names);
    }

    /**
     * Puts the rows of symbols {@code first} to {@code first + count - 1} into {@code out} at its position, in its
     * byte order, {@link #ROW_BYTES} each: the bytes {@link #mapped} reads back.
     */
    public void copyRows(int first, int count, ByteBuffer out) {
        for (int i = first; i < first + count; i++) {
            out.putLong(rows.address(i)).putLong(rows.size(i)).putLong(rows.name(i));
        }
    }

    /** Number of string tables the names lie in. */
    public int stringTableCount() {
        return nameSource.tableCount();
    }

    /** String table {@code number}: the buffer (a section mapped from a module's file) names are read from. */
    public ByteBuffer stringTable(int number) {
        return nameSource.tableAt(number);
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
