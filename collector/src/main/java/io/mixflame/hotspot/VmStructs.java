package io.mixflame.hotspot;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.cache.StringKeyedTable;
import io.mixflame.process.MemoryReadException;
import io.mixflame.process.PageCachedMemory;
import io.mixflame.image.LoadedModule;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * HotSpot's self-description: the four tables libjvm exports ({@code gHotSpotVMStructs}, {@code gHotSpotVMTypes},
 * {@code gHotSpotVMIntConstants}, {@code gHotSpotVMLongConstants}), read from a process. Field offsets, type
 * sizes and constants are looked up by name, so nothing about a JVM's layout is compiled into the profiler.
 */
public final class VmStructs {
    private static final int MAX_ENTRIES = 20_000;
    /** Pages of libjvm's tables and their names kept while they are read: 512 KiB at most, for that time only. */
    private static final int TABLE_PAGES = 128;

    /** A field of a VM type: an offset within the object, or for a static field its address. */
    public record Field(String typeString, boolean isStatic, long offset, long address) {
    }

    // Not HashMaps: their thousands of puts at start would make C2 compile the service's HashMap code for our keys
    // (StringKeyedTable says more).
    private final StringKeyedTable<Field> fields = new StringKeyedTable<>();
    private final StringKeyedTable<Long> typeSizes = new StringKeyedTable<>();
    private final StringKeyedTable<Long> constants = new StringKeyedTable<>();

    private VmStructs() {
    }

    /**
     * Reads the tables of the libjvm mapped at {@code libjvm}.
     *
     * @throws UnsupportedVmException when libjvm does not export them (not HotSpot, or a stripped build)
     */
    public static VmStructs read(VmReader process, LoadedModule libjvm) throws UnsupportedVmException {
        VmStructs vm = new VmStructs();
        // The tables are static data of libjvm: read a page at a time rather than a word at a time.
        VmReader reader = new VmReader(new PageCachedMemory(process.memory(), TABLE_PAGES));
        Map<String, Long> symbols = libjvm.image().exports().withPrefix("gHotSpotVM");
        if (symbols.isEmpty()) {
            throw new UnsupportedVmException(libjvm.image().path() + " exports none of HotSpot's tables");
        }
        Symbols s = new ExportedTables(symbols, libjvm, reader);
        try {
            vm.readStructs(reader, s);
            vm.readTypes(reader, s);
            vm.readConstants(reader, s, "gHotSpotVMIntConstant", true);
            vm.readConstants(reader, s, "gHotSpotVMLongConstant", false);
        } catch (MemoryReadException e) {
            throw new UnsupportedVmException("the JVM's tables could not be read: " + e.getMessage());
        }
        return vm;
    }

    /** The value, in the process, of one of libjvm's exported table variables. */
    @FunctionalInterface
    private interface Symbols {
        long value(String name) throws UnsupportedVmException, MemoryReadException;
    }

    /** libjvm's exported table variables, read in the process. */
    private static final class ExportedTables implements Symbols {
        private final Map<String, Long> symbols;
        private final LoadedModule libjvm;
        private final VmReader reader;

        ExportedTables(Map<String, Long> symbols, LoadedModule libjvm, VmReader reader) {
            this.symbols = symbols;
            this.libjvm = libjvm;
            this.reader = reader;
        }

        @Override
        public long value(String name) throws UnsupportedVmException, MemoryReadException {
            Long value = symbols.get(name);
            if (value == null) {
                throw new UnsupportedVmException(libjvm.image().name() + " does not export " + name);
            }
            return reader.readLong(value + libjvm.bias());
        }
    }

    private void readStructs(VmReader r, Symbols s) throws UnsupportedVmException, MemoryReadException {
        NameCache names = new NameCache(r);
        long base = s.value("gHotSpotVMStructs");
        long typeName = s.value("gHotSpotVMStructEntryTypeNameOffset");
        long fieldName = s.value("gHotSpotVMStructEntryFieldNameOffset");
        long typeString = s.value("gHotSpotVMStructEntryTypeStringOffset");
        long isStatic = s.value("gHotSpotVMStructEntryIsStaticOffset");
        long offset = s.value("gHotSpotVMStructEntryOffsetOffset");
        long address = s.value("gHotSpotVMStructEntryAddressOffset");
        long stride = s.value("gHotSpotVMStructEntryArrayStride");
        for (int i = 0; i < MAX_ENTRIES; i++) {
            long entry = base + i * stride;
            long typePtr = r.readLong(entry + typeName);
            long fieldPtr = r.readLong(entry + fieldName);
            if (typePtr == 0 || fieldPtr == 0) {
                return;
            }
            long typeStringPtr = r.readLong(entry + typeString);
            String ts = typeStringPtr == 0 ? "" : names.of(typeStringPtr);
            boolean st = r.s32(entry + isStatic) != 0;
            fields.put(names.of(typePtr) + "::" + names.of(fieldPtr),
                    new Field(ts, st, r.readLong(entry + offset), r.readLong(entry + address)));
        }
    }

    private void readTypes(VmReader r, Symbols s) throws UnsupportedVmException, MemoryReadException {
        NameCache names = new NameCache(r);
        long base = s.value("gHotSpotVMTypes");
        long typeName = s.value("gHotSpotVMTypeEntryTypeNameOffset");
        long size = s.value("gHotSpotVMTypeEntrySizeOffset");
        long stride = s.value("gHotSpotVMTypeEntryArrayStride");
        for (int i = 0; i < MAX_ENTRIES; i++) {
            long entry = base + i * stride;
            long typePtr = r.readLong(entry + typeName);
            if (typePtr == 0) {
                return;
            }
            typeSizes.put(names.of(typePtr), r.readLong(entry + size));
        }
    }

    private void readConstants(VmReader r, Symbols s, String prefix, boolean ints)
            throws UnsupportedVmException, MemoryReadException {
        long base = s.value(prefix + "s");
        long name = s.value(prefix + "EntryNameOffset");
        long value = s.value(prefix + "EntryValueOffset");
        long stride = s.value(prefix + "EntryArrayStride");
        for (int i = 0; i < MAX_ENTRIES; i++) {
            long entry = base + i * stride;
            long namePtr = r.readLong(entry + name);
            if (namePtr == 0) {
                return;
            }
            constants.put(r.cString(namePtr), ints ? (long) r.s32(entry + value) : r.readLong(entry + value));
        }
    }

    /** The tables' strings by address: a type's name is one string that thousands of entries point to. */
    private static final class NameCache {
        private final VmReader reader;
        private final LongKeyedCache<String> byAddress = new LongKeyedCache<>(MAX_ENTRIES);

        NameCache(VmReader reader) {
            this.reader = reader;
        }

        String of(long address) throws MemoryReadException {
            String s = byAddress.get(address);
            if (s == null) {
                s = reader.cString(address);
                byAddress.put(address, s);
            }
            return s;
        }
    }

    /** A field by type and name, such as {@code field("CodeBlob", "_name")}. */
    public Optional<Field> field(String type, String name) {
        return Optional.ofNullable(fields.get(type + "::" + name));
    }

    /**
     * A field the caller cannot do without (these look-ups run in the service's start-up: checked here rather than
     * through {@code Optional}'s lambdas, which the JVM spins classes for).
     *
     * @throws UnsupportedVmException naming the field when the JVM does not describe it
     */
    public Field requiredField(String type, String name) throws UnsupportedVmException {
        Field f = fields.get(type + "::" + name);
        if (f == null) {
            throw new UnsupportedVmException("the JVM does not describe " + type + "::" + name);
        }
        return f;
    }

    /** A field's offset, or {@code absent} when the JVM does not describe it. */
    public long offsetOr(String type, String name, long absent) {
        Field f = fields.get(type + "::" + name);
        return f == null ? absent : f.offset();
    }

    /**
     * A constant the caller cannot do without.
     *
     * @throws UnsupportedVmException naming it when the JVM does not export it
     */
    public long requiredConstant(String name) throws UnsupportedVmException {
        Long c = constants.get(name);
        if (c == null) {
            throw new UnsupportedVmException("the JVM does not export " + name);
        }
        return c;
    }

    /** Every field of {@code type}, by name (for the stub entry points a JVM exports as static fields). */
    public Map<String, Field> fieldsOf(String type) {
        FieldsOfType of = new FieldsOfType(type + "::");
        fields.forEach(of);
        return of.found;
    }

    /** Collects the fields whose key starts with a type's prefix (a class, not a lambda: see requiredField). */
    private static final class FieldsOfType implements BiConsumer<String, Field> {
        private final String prefix;
        private final Map<String, Field> found = new HashMap<>();

        FieldsOfType(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public void accept(String key, Field field) {
            if (key.startsWith(prefix) && key.indexOf("::", prefix.length()) < 0) {
                found.put(key.substring(prefix.length()), field);
            }
        }
    }

    /** A type's size in bytes. */
    public OptionalLong typeSize(String type) {
        Long s = typeSizes.get(type);
        return s == null ? OptionalLong.empty() : OptionalLong.of(s);
    }

    /** An int or long constant. */
    public OptionalLong constant(String name) {
        Long c = constants.get(name);
        return c == null ? OptionalLong.empty() : OptionalLong.of(c);
    }

    /** Number of fields read, for diagnostics. */
    public int fieldCount() {
        return fields.size();
    }
}
