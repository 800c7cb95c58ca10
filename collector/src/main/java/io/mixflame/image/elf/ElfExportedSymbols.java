package io.mixflame.image.elf;

import io.mixflame.image.ExportedSymbols;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The symbols of an ELF file: prefixes among those it exports, exact names among all it names. The last answers for
 * prefixes are kept: attaching asks libjvm for the same prefix more than once.
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

    @Override
    public long[] addresses(String... names) {
        return ElfSymbolLookup.addresses(elf, names);
    }
}
