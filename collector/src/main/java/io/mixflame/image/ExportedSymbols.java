package io.mixflame.image;

import java.util.Map;

/**
 * The symbols a module exports, data as well as functions: how HotSpot's self-description tables are found in the
 * JVM's library. ELF's dynamic and static symbol tables on Linux, the PE export directory on Windows.
 */
public interface ExportedSymbols {

    /** Exports nothing: a file that could not be read. */
    ExportedSymbols NONE = prefix -> Map.of();

    /**
     * The link-time address of every exported symbol whose name starts with {@code prefix}, found in one pass.
     */
    Map<String, Long> withPrefix(String prefix);
}
