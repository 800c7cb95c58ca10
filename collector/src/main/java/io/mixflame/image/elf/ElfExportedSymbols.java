package io.mixflame.image.elf;

import io.mixflame.image.ExportedSymbols;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The exported symbols of an ELF file: every defined symbol of its dynamic and static symbol tables. The last
 * answers are kept: attaching asks libjvm for the same prefix more than once, and each look-up reads every symbol.
 */
public final class ElfExportedSymbols implements ExportedSymbols {
    private static final int KEPT_ANSWERS = 16;

    private final ElfFile elf;
    private final Map<String, Map<String, Long>> answers = new LinkedHashMap<>(KEPT_ANSWERS, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, Long>> eldest) {
            return size() > KEPT_ANSWERS;
        }
    };

    /** The symbols of {@code elf}, looked up when asked. */
    public ElfExportedSymbols(ElfFile elf) {
        this.elf = elf;
    }

    @Override
    public synchronized Map<String, Long> withPrefix(String prefix) {
        Map<String, Long> found = answers.get(prefix);
        if (found == null) {
            found = Map.copyOf(ElfSymbolLookup.withPrefix(elf, prefix));
            answers.put(prefix, found);
        }
        return found;
    }
}
