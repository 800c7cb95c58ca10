package io.mixflame.image;

import java.util.Map;

/**
 * The symbols a module names, data as well as functions: how HotSpot's self-description tables and some of its hidden
 * variables are found in the JVM's library. ELF's dynamic and static symbol tables on Linux, the PE export directory
 * on Windows.
 */
public interface ExportedSymbols {

    /** Exports nothing: a file that could not be read. */
    ExportedSymbols NONE = new ExportedSymbols() {
        @Override
        public Map<String, Long> withPrefix(String prefix) {
            return Map.of();
        }
    };

    /**
     * The link-time address of every exported symbol whose name starts with {@code prefix}, found in one pass (on
     * ELF, of the dynamic symbol table, or of the static one when there is no dynamic table).
     */
    Map<String, Long> withPrefix(String prefix);

    /**
     * The link-time address of each of {@code names}, exactly as named, or 0 where there is none: on ELF also symbols
     * the module does not export (its static symbol table, when not stripped), all of them found in one pass of each
     * table; by default one {@link #withPrefix} per name.
     */
    default long[] addresses(String... names) {
        long[] values = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            Long value = withPrefix(names[i]).get(names[i]);
            values[i] = value == null ? 0 : value;
        }
        return values;
    }
}
