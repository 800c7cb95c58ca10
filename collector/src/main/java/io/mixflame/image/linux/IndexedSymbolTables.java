package io.mixflame.image.linux;

import io.mixflame.image.SymbolTable;
import io.mixflame.image.SymbolTableBuilder;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfSection;
import io.mixflame.image.elf.ElfSymbolReader;
import io.mixflame.image.index.IndexRefusedException;
import io.mixflame.image.index.IndexSection;
import io.mixflame.image.index.LongArraySection;
import io.mixflame.image.index.ModuleIndex;
import io.mixflame.image.index.ModuleIndexKey;
import io.mixflame.image.index.ModuleIndexStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ELF module's symbol table, from the host's module index when it has a sound one for the module, else read from
 * the module's files (and its separate debug file) and then written to the index for the next JVM. The index holds
 * the table's rows as {@link SymbolTable} reads them, mapped, not copied; the names stay in the module's own string
 * tables, which the index names by file, offset and size and which must be there, the same, for it to be used.
 */
final class IndexedSymbolTables {
    /** Section: which files the table was read from, {@code [role, size]} each. */
    static final int SOURCES = 1;
    /** Section: the string tables name references number, in order, {@code [role, offset, size]} each. */
    static final int STRING_TABLES = 2;
    /** Section: the symbol rows, {@link SymbolTable#ROW_BYTES} each. */
    static final int SYMBOL_ROWS = 3;
    /** Role of the module's own file. */
    static final long MODULE = 0;
    /** Role of its separate debug file. */
    static final long DEBUG_FILE = 1;
    private static final int SHT_STRTAB = 3;
    private static final Logger LOG = LoggerFactory.getLogger(IndexedSymbolTables.class);

    private final ModuleIndexStore store;

    /** Symbol tables through {@code store} ({@link ModuleIndexStore#DISABLED}: always from the files). */
    IndexedSymbolTables(ModuleIndexStore store) {
        this.store = store;
    }

    /**
     * The symbols of the module at {@code path}.
     *
     * @param debug its separate debug file, if one is installed
     * @throws RuntimeException when the module's own symbols are malformed (never for a bad index file)
     */
    SymbolTable load(String path, ElfFile module, Optional<ElfFile> debug) {
        Optional<SymbolTable> indexed = indexed(path, module, debug);
        return indexed.isPresent() ? indexed.get() : buildAndIndex(path, module, debug);
    }

    /** The table from the module's index; empty when there is no sound one for the module as it is now. */
    Optional<SymbolTable> indexed(String path, ElfFile module, Optional<ElfFile> debug) {
        Optional<ModuleIndexKey> key = key(path, module);
        Optional<ModuleIndex> index = key.isPresent() ? store.open(key.get()) : Optional.empty();
        if (index.isEmpty()) {
            return Optional.empty();
        }
        try {
            SymbolTable table = fromIndex(index.get(), module, debug);
            LOG.debug("symbols of {} from module index {}", path, index.get().fileName());
            return Optional.of(table);
        } catch (IndexRefusedException | RuntimeException e) {
            LOG.debug("module index {} refused for {} ({}); rebuilt", index.get().fileName(), path, e.getMessage());
            return Optional.empty();
        }
    }

    /** The table read from the module's files, then written to its index (replacing any there) when it can be. */
    SymbolTable buildAndIndex(String path, ElfFile module, Optional<ElfFile> debug) {
        SymbolTableBuilder builder = new SymbolTableBuilder();
        if (debug.isPresent()) {
            ElfSymbolReader.readInto(debug.get(), builder);
        }
        ElfSymbolReader.readInto(module, builder);
        SymbolTable table = builder.build();
        Optional<ModuleIndexKey> key = key(path, module);
        if (key.isPresent()) {
            write(key.get(), table, module, debug, path);
        }
        return table;
    }

    /** Pseudo-files ({@code [vdso]}) are not indexed: they are small, and have no file to key them by. */
    private Optional<ModuleIndexKey> key(String path, ElfFile module) {
        return store.enabled() && path.startsWith("/")
                ? ModuleIndexKey.of(path, module.buildId(), module.data().capacity()) : Optional.empty();
    }

    private void write(ModuleIndexKey key, SymbolTable table, ElfFile module, Optional<ElfFile> debug, String path) {
        long[] origins = new long[3 * table.stringTableCount()];
        for (int i = 0; i < table.stringTableCount(); i++) {
            ByteBuffer strings = table.stringTable(i);
            if (!locate(strings, module, MODULE, origins, 3 * i)
                    && !(debug.isPresent() && locate(strings, debug.get(), DEBUG_FILE, origins, 3 * i))) {
                LOG.debug("symbols of {} not indexed: a string table is not a section of its files", path);
                return;
            }
        }
        long[] sources = debug.isPresent()
                ? new long[] {MODULE, module.data().capacity(), DEBUG_FILE, debug.get().data().capacity()}
                : new long[] {MODULE, module.data().capacity()};
        List<IndexSection> sections = List.of(new LongArraySection(SOURCES, 2, sources),
                new LongArraySection(STRING_TABLES, 3, origins), new SymbolRowsSection(SYMBOL_ROWS, table));
        if (store.write(key, sections)) {
            LOG.debug("symbols of {} written to module index {}", path, key.fileName());
        }
    }

    /** Finds the string table section whose bytes {@code strings} are, and records where it lies. */
    private static boolean locate(ByteBuffer strings, ElfFile file, long role, long[] origins, int at) {
        for (ElfSection s : file.sections()) {
            if (s.type() == SHT_STRTAB && s.hasData() && file.sectionBytes(s) == strings) {
                origins[at] = role;
                origins[at + 1] = s.offset();
                origins[at + 2] = s.size();
                return true;
            }
        }
        return false;
    }

    private static SymbolTable fromIndex(ModuleIndex index, ElfFile module, Optional<ElfFile> debug)
            throws IndexRefusedException {
        ByteBuffer sources = section(index, SOURCES, 2 * Long.BYTES);
        long moduleSize = -1;
        long debugSize = -1;
        while (sources.remaining() > 0) {
            long role = sources.getLong();
            long size = sources.getLong();
            if (role == MODULE) {
                moduleSize = size;
            } else if (role == DEBUG_FILE) {
                debugSize = size;
            }
        }
        if (moduleSize != module.data().capacity()) {
            throw new IndexRefusedException("made from a module of another size");
        }
        if (debugSize != (debug.isPresent() ? debug.get().data().capacity() : -1L)) {
            throw new IndexRefusedException("made with another debug file, or with none");
        }
        ByteBuffer origins = section(index, STRING_TABLES, 3 * Long.BYTES);
        List<ByteBuffer> tables = new ArrayList<>();
        while (origins.remaining() > 0) {
            long role = origins.getLong();
            long offset = origins.getLong();
            long size = origins.getLong();
            ElfFile file = role == MODULE ? module : role == DEBUG_FILE && debug.isPresent() ? debug.get() : null;
            tables.add(stringTable(file, offset, size));
        }
        try {
            return SymbolTable.mapped(section(index, SYMBOL_ROWS, SymbolTable.ROW_BYTES), tables);
        } catch (IllegalArgumentException e) {
            throw new IndexRefusedException(e.getMessage());
        }
    }

    /** A section's bytes, which must be as many whole entries as the file records. */
    private static ByteBuffer section(ModuleIndex index, int kind, int entryBytes) throws IndexRefusedException {
        ByteBuffer bytes = index.section(kind);
        if (bytes.remaining() != (long) index.entries(kind) * entryBytes) {
            throw new IndexRefusedException("section " + kind + " is not " + index.entries(kind) + " entries");
        }
        return bytes;
    }

    private static ByteBuffer stringTable(ElfFile file, long offset, long size) throws IndexRefusedException {
        if (file != null) {
            for (ElfSection s : file.sections()) {
                if (s.type() == SHT_STRTAB && s.hasData() && s.offset() == offset && s.size() == size) {
                    return file.sectionBytes(s);
                }
            }
        }
        throw new IndexRefusedException("names a string table its module does not have");
    }

    /** The symbol rows, put a chunk at a time as the table holds them. */
    private record SymbolRowsSection(int kind, SymbolTable table) implements IndexSection {
        @Override
        public int entries() {
            return table.size();
        }

        @Override
        public int entryBytes() {
            return SymbolTable.ROW_BYTES;
        }

        @Override
        public void put(int first, int count, ByteBuffer out) {
            table.copyRows(first, count, out);
        }
    }
}
