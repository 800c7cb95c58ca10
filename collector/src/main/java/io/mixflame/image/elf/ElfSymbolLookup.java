package io.mixflame.image.elf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Finds named symbols of any type (data included) in an ELF file's dynamic or static symbol table.
 *
 * <p>These look-ups run in the service's start-up, in the service's JIT: libjvm's static table has some 58 000
 * symbols, and a loop that runs that often is compiled by C2 on the stack (about 80 ms of compile time when the table
 * was read twice, a byte compared at a time). So a prefix is looked for in the dynamic table alone, which is small and
 * holds everything a library exports, and exact names take one pass of the static table for all of them, each symbol
 * tested by comparing the first eight bytes of its name as one word in a method of its own.
 */
public final class ElfSymbolLookup {
    private static final int SYMBOL_SIZE = 24;
    private static final int NAME = 0;
    private static final int SECTION_INDEX = 6;
    private static final int VALUE = 8;
    private static final String[] TABLES = {".dynsym", ".symtab"};

    private ElfSymbolLookup() {
    }

    /**
     * The link-time values of every defined symbol whose name starts with {@code prefix}: from {@code .dynsym}, what
     * the file exports, or from {@code .symtab} when the file has no dynamic table.
     */
    public static Map<String, Long> withPrefix(ElfFile elf, String prefix) {
        Map<String, Long> found = new HashMap<>();
        byte[] prefixBytes = prefix.getBytes(StandardCharsets.UTF_8);
        for (String table : TABLES) {
            ElfSection[] sections = table(elf, table);
            if (sections == null) {
                continue;
            }
            ByteBuffer symbols = elf.sectionBytes(sections[0]);
            ByteBuffer names = elf.sectionBytes(sections[1]);
            int count = symbols.limit() / SYMBOL_SIZE;
            for (int i = 0; i < count; i++) {
                int at = i * SYMBOL_SIZE;
                long nameIndex = Integer.toUnsignedLong(symbols.getInt(at + NAME));
                if (defined(symbols, at) && nameIndex != 0 && startsWith(names, nameIndex, prefixBytes)) {
                    found.putIfAbsent(elf.stringAt(sections[1].offset(), sections[1].size(), nameIndex),
                            symbols.getLong(at + VALUE));
                }
            }
            return found;
        }
        return found;
    }

    /**
     * The link-time value of each of {@code names}, exactly as named, or 0 where the file defines none: hidden
     * symbols too, which only {@code .symtab} names. One pass over each table for all of the names.
     */
    public static long[] addresses(ElfFile elf, String... names) {
        long[] values = new long[names.length];
        WantedNames wanted = new WantedNames(names);
        for (String table : TABLES) {
            if (wanted.remaining() == 0) {
                break;
            }
            ElfSection[] sections = table(elf, table);
            if (sections == null) {
                continue;
            }
            ByteBuffer symbols = elf.sectionBytes(sections[0]);
            ByteBuffer nameBytes = elf.sectionBytes(sections[1]);
            int count = symbols.limit() / SYMBOL_SIZE;
            for (int i = 0; i < count; i++) {
                int at = i * SYMBOL_SIZE;
                long nameIndex = Integer.toUnsignedLong(symbols.getInt(at + NAME));
                if (nameIndex == 0 || nameIndex >= nameBytes.limit()) {
                    continue;
                }
                int w = wanted.match(nameBytes, (int) nameIndex);
                if (w >= 0 && defined(symbols, at)) {
                    values[w] = symbols.getLong(at + VALUE);
                    wanted.found(w);
                }
            }
        }
        return values;
    }

    /** A symbol table and its string table, or null when the file has not both with their bytes. */
    private static ElfSection[] table(ElfFile elf, String name) {
        Optional<ElfSection> section = elf.sectionWithData(name);
        if (section.isEmpty()) {
            return null;
        }
        ElfSection strings = elf.section(section.get().link());
        if (!strings.hasData()) {
            return null;
        }
        return new ElfSection[] {section.get(), strings};
    }

    private static boolean defined(ByteBuffer symbols, int at) {
        return symbols.getShort(at + SECTION_INDEX) != 0;
    }

    private static boolean startsWith(ByteBuffer names, long index, byte[] prefix) {
        if (index + prefix.length > names.limit()) {
            return false;
        }
        int at = (int) index;
        for (int i = 0; i < prefix.length; i++) {
            if (names.get(at + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The names looked for, each with its first eight bytes (its terminating zero included when shorter) as a word,
     * so that most symbols are ruled out by one comparison per name.
     */
    private static final class WantedNames {
        private final byte[][] names;
        private final long[] heads;
        private final long[] masks;
        private final boolean[] done;
        private int remaining;

        WantedNames(String[] wanted) {
            names = new byte[wanted.length][];
            heads = new long[wanted.length];
            masks = new long[wanted.length];
            done = new boolean[wanted.length];
            remaining = wanted.length;
            for (int w = 0; w < wanted.length; w++) {
                byte[] b = wanted[w].getBytes(StandardCharsets.UTF_8);
                names[w] = b;
                int compared = Math.min(8, b.length + 1);
                long head = 0;
                for (int i = 0; i < compared && i < b.length; i++) {
                    head |= (b[i] & 0xffL) << (8 * i);
                }
                heads[w] = head;
                masks[w] = compared == 8 ? -1L : (1L << (8 * compared)) - 1;
            }
        }

        int remaining() {
            return remaining;
        }

        void found(int w) {
            if (!done[w]) {
                done[w] = true;
                remaining--;
            }
        }

        /** Which name not found yet the string at {@code at} is, or -1. */
        int match(ByteBuffer table, int at) {
            if (at + 8 <= table.limit()) {
                long word = table.getLong(at);
                for (int w = 0; w < heads.length; w++) {
                    if ((word & masks[w]) == heads[w] && !done[w] && equalsAt(table, at, names[w])) {
                        return w;
                    }
                }
                return -1;
            }
            for (int w = 0; w < names.length; w++) {
                if (!done[w] && equalsAt(table, at, names[w])) {
                    return w;
                }
            }
            return -1;
        }

        private static boolean equalsAt(ByteBuffer table, int at, byte[] name) {
            if (at + name.length >= table.limit()) {
                return false;
            }
            for (int i = 0; i < name.length; i++) {
                if (table.get(at + i) != name[i]) {
                    return false;
                }
            }
            return table.get(at + name.length) == 0;
        }
    }
}
