package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * The names and entry points of the stubs HotSpot generates into its code blobs (the blob itself is only named
 * "StubRoutines (2)" or "vtable chunks"): from {@code StubCodeDesc::_list} where libjvm has a symbol table, else from
 * the entry points its tables export ({@link StubEntryFields}); vtable and itable stubs from
 * {@code VtableStubs::_table}. Nothing is read until a sample first lands in a stub; a pc that none of them holds
 * has them read again (as {@link ReloadBackoff} paces it), since the JVM generates some stubs late.
 * Lookups allocate nothing.
 */
final class GeneratedStubs {
    static final String STUB_LIST_SYMBOL = "_ZN12StubCodeDesc5_listE";
    static final String VTABLE_TABLE_SYMBOL = "_ZN11VtableStubs6_tableE";
    /** Every symbol asked for, so that a look-up finds them all in one pass. */
    static final String[] SYMBOLS = {STUB_LIST_SYMBOL, VTABLE_TABLE_SYMBOL};
    static final String VTABLE_STUB = "vtable stub";
    static final String ITABLE_STUB = "itable stub";
    private static final long NOT_LOOKED_UP = -1;

    /** Addresses of libjvm's symbols in the process. */
    @FunctionalInterface
    interface Symbols {
        /** The address of a (mangled) symbol, or 0 when libjvm has none of that name. */
        long address(String symbol);
    }

    private final VmReader reader;
    /** Where each stub's entry is kept ({@link StubEntryFields#fields}). */
    private final Map<String, Long> entryFields;
    private final Symbols symbols;
    private final LongFunction<CodeBlobInfo> blobs;
    private final LongPredicate inCodeCache;
    private final LongSupplier clock;

    private long listVariable = NOT_LOOKED_UP;
    private long listHead;
    private StubRanges ranges;
    private final ReloadBackoff rangesReload = new ReloadBackoff();
    private long tableVariable = NOT_LOOKED_UP;
    private VtableStubTable vtables;
    private final ReloadBackoff vtablesReload = new ReloadBackoff();

    GeneratedStubs(VmReader reader, VmStructs structs, Symbols symbols, LongFunction<CodeBlobInfo> blobs,
                   LongPredicate inCodeCache, LongSupplier clock) {
        this.reader = reader;
        this.entryFields = StubEntryFields.fields(structs);
        this.symbols = symbols;
        this.blobs = blobs;
        this.inCodeCache = inCodeCache;
        this.clock = clock;
    }

    /**
     * The name of the stub at {@code pc} in {@code blob} (a blob that is not Java code): the stub's own name,
     * "vtable stub" or "itable stub", or where none is known the blob's name.
     */
    String name(CodeBlobInfo blob, long pc) {
        if (blob.isVtableChunks()) {
            return vtableKind(pc) == VtableStubTable.ITABLE ? ITABLE_STUB : VTABLE_STUB;
        }
        int i = rangeIndex(pc);
        return i >= 0 ? ranges.name(i) : blob.name();
    }

    /**
     * The first instruction of the stub that holds {@code pc}: the stub's entry where it is known; the blob's first
     * instruction for a blob that holds no known stub; 0 for a pc between the known stubs of a blob, or in a vtable
     * stub not (yet) listed.
     */
    long entry(CodeBlobInfo blob, long pc) {
        if (blob.isVtableChunks()) {
            vtableKind(pc);
            return vtables.codeBeginAt(pc);
        }
        int i = rangeIndex(pc);
        if (i >= 0) {
            return ranges.begin(i);
        }
        int after = ranges.indexAtOrAfter(blob.codeBegin());
        return after >= 0 && ranges.begin(after) < blob.end() ? 0 : blob.codeBegin();
    }

    private int rangeIndex(long pc) {
        if (ranges == null) {
            readRanges();
        }
        int i = ranges.indexOf(pc);
        if (i < 0 && rangesReload.due(clock.getAsLong())) {
            readRanges();
            i = ranges.indexOf(pc);
        }
        return i;
    }

    private void readRanges() {
        ranges = rangesNow();
        rangesReload.read(clock.getAsLong(), ranges.size());
    }

    private StubRanges rangesNow() {
        if (listVariable == NOT_LOOKED_UP) {
            listVariable = symbols.address(STUB_LIST_SYMBOL);
        }
        if (listVariable != 0) {
            try {
                long head = reader.readLong(listVariable);
                if (ranges == null || head != listHead) {
                    listHead = head;
                    StubRanges listed = new StubCodeList(reader, inCodeCache).read(head);
                    if (listed.size() > 0) {
                        return listed;
                    }
                } else if (ranges.size() > 0) {
                    return ranges;
                }
            } catch (MemoryReadException e) {
                // The list cannot be read: the exported entry points are the next best.
            }
        }
        return StubEntryFields.read(entryFields, reader, blobs);
    }

    private int vtableKind(long pc) {
        if (vtables == null) {
            readVtables();
        }
        int kind = vtables.kindAt(pc);
        if (kind == VtableStubTable.UNKNOWN && vtablesReload.due(clock.getAsLong())) {
            readVtables();
            kind = vtables.kindAt(pc);
        }
        return kind;
    }

    private void readVtables() {
        if (tableVariable == NOT_LOOKED_UP) {
            tableVariable = symbols.address(VTABLE_TABLE_SYMBOL);
        }
        vtables = tableVariable == 0 ? VtableStubTable.EMPTY : VtableStubTable.read(reader, tableVariable, blobs);
        vtablesReload.read(clock.getAsLong(), vtables.size());
    }
}
