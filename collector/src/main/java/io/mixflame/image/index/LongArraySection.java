package io.mixflame.image.index;

import java.nio.ByteBuffer;

/** A small section whose entries are each a fixed number of longs, from an array: a file's list of sources, say. */
public final class LongArraySection implements IndexSection {
    private final int kind;
    private final int longsPerEntry;
    private final long[] values;

    /**
     * @param values the entries one after another, {@code longsPerEntry} longs each; kept, not copied
     */
    public LongArraySection(int kind, int longsPerEntry, long[] values) {
        if (longsPerEntry <= 0 || values.length % longsPerEntry != 0) {
            throw new IllegalArgumentException(values.length + " longs are not entries of " + longsPerEntry);
        }
        this.kind = kind;
        this.longsPerEntry = longsPerEntry;
        this.values = values;
    }

    @Override
    public int kind() {
        return kind;
    }

    @Override
    public int entries() {
        return values.length / longsPerEntry;
    }

    @Override
    public int entryBytes() {
        return longsPerEntry * Long.BYTES;
    }

    @Override
    public void put(int first, int count, ByteBuffer out) {
        for (int i = first * longsPerEntry; i < (first + count) * longsPerEntry; i++) {
            out.putLong(values[i]);
        }
    }
}
