package io.mixflame.image;

import java.util.Arrays;

/**
 * Function symbols of one module sorted by address, for finding the function that holds an address. Addresses
 * are the module's own (link-time) virtual addresses; callers subtract the load bias first.
 */
public final class SymbolTable {
    /** A table without symbols. */
    public static final SymbolTable EMPTY = new SymbolTable(new long[0], new long[0], new long[0], new SymbolNames());

    private final long[] addresses;
    private final long[] sizes;
    private final long[] names;
    private final SymbolNames nameSource;
    /** Demangled names, filled on first use; a racy fill is harmless since every writer writes the same string. */
    private final String[] displayNames;

    /** Takes sorted, parallel arrays; see {@link SymbolTableBuilder}. */
    SymbolTable(long[] addresses, long[] sizes, long[] names, SymbolNames nameSource) {
        this.addresses = addresses;
        this.sizes = sizes;
        this.names = names;
        this.nameSource = nameSource;
        this.displayNames = new String[names.length];
    }

    /** Number of symbols. */
    public int size() {
        return names.length;
    }

    /**
     * The index of the symbol that holds {@code address}: the last symbol at or below it, if the address is within
     * its size (or the symbol has no size, as hand-written assembly often has not); -1 when none holds it.
     */
    public int indexOf(long address) {
        int i = Arrays.binarySearch(addresses, address);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0) {
            return -1;
        }
        long size = sizes[i];
        if (size != 0 && address - addresses[i] >= size) {
            return -1;
        }
        return i;
    }

    /** The raw (possibly mangled) name of a symbol. */
    public String name(int index) {
        return nameSource.read(names[index]);
    }

    /**
     * The name a symbolizer made of symbol {@code index} for users (demangled), or null before one did: kept here so
     * that every walker of every process shares the work.
     */
    public String displayName(int index) {
        return displayNames[index];
    }

    /** Keeps the name made for users of symbol {@code index}. */
    public void setDisplayName(int index, String name) {
        displayNames[index] = name;
    }

    /** The address of a symbol. */
    public long address(int index) {
        return addresses[index];
    }
}
