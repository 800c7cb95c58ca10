package io.mixflame.image;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Where symbol names lie, without reading them: each name is a string table (an ELF {@code .strtab} or
 * {@code .dynstr}, mapped from the file) and an offset into it, plus a suffix the symbol's kind adds ({@code @plt}).
 * A library's tens of thousands of names thus cost two numbers each until a frame needs one of them.
 */
final class SymbolNames {
    /** The suffix of a PLT stub's name. */
    static final int PLT = 1;
    private static final String[] SUFFIXES = {"", "@plt"};
    private static final int MAX_NAME = 64 * 1024;

    private ByteBuffer[] tables = new ByteBuffer[4];
    private int tableCount;

    /** Names in tables yet to be registered ({@link #table}). */
    SymbolNames() {
    }

    /**
     * Names in these tables, numbered in this order as given (a table read back from a module index, whose
     * references already carry the numbers): not merged when two are the same buffer, which would renumber them.
     */
    SymbolNames(List<ByteBuffer> strings) {
        tables = strings.toArray(new ByteBuffer[0]);
        tableCount = tables.length;
    }

    /** Number of string tables. */
    int tableCount() {
        return tableCount;
    }

    /** String table {@code number}, as registered. */
    ByteBuffer tableAt(int number) {
        return tables[number];
    }

    /** Whether a reference names a registered table and a known suffix, so that {@link #read} can follow it. */
    boolean isValid(long reference) {
        return reference >= 0 && (reference >>> 40) < tableCount && ((reference >>> 32) & 0xff) < SUFFIXES.length;
    }

    /** Registers a string table; returns its number for {@link #reference}. */
    int table(ByteBuffer strings) {
        for (int i = 0; i < tableCount; i++) {
            if (tables[i] == strings) {
                return i;
            }
        }
        if (tableCount == tables.length) {
            tables = Arrays.copyOf(tables, tableCount * 2);
        }
        tables[tableCount] = strings;
        return tableCount++;
    }

    /** A name as one number: table, suffix kind, offset in the table. */
    static long reference(int table, int suffix, long offset) {
        return ((long) table << 40) | ((long) suffix << 32) | (offset & 0xffffffffL);
    }

    /** Reads a name; "?" when its bytes are not a terminated string inside the table. */
    String read(long reference) {
        ByteBuffer strings = tables[(int) (reference >>> 40)];
        int suffix = (int) ((reference >>> 32) & 0xff);
        int start = (int) reference;
        int limit = strings.limit();
        int end = start;
        while (end < limit && end - start < MAX_NAME && strings.get(end) != 0) {
            end++;
        }
        if (start < 0 || end >= limit || strings.get(end) != 0) {
            return "?";
        }
        byte[] bytes = new byte[end - start];
        strings.get(start, bytes);
        return new String(bytes, StandardCharsets.UTF_8) + SUFFIXES[suffix];
    }
}
