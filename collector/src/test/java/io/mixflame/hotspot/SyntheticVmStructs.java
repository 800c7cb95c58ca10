package io.mixflame.hotspot;

import io.mixflame.image.LoadedModule;
import io.mixflame.image.linux.ElfModuleImage;
import io.mixflame.testsupport.ElfImageBuilder;
import io.mixflame.testsupport.FakeProcessMemory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HotSpot's self-description tables ({@code gHotSpotVMStructs}, {@code gHotSpotVMTypes} and the two constant
 * tables) laid out in a {@link FakeProcessMemory} the way libjvm lays them out, with a libjvm image exporting
 * the {@code gHotSpotVM*} symbols that locate them, so that {@link VmStructs#read} reads them as from a real JVM.
 */
final class SyntheticVmStructs {
    // The entry layouts are the test's choice: VmStructs reads them through the exported offsets and strides.
    private static final int STRUCT_STRIDE = 48;
    private static final int TYPE_STRIDE = 40;
    private static final int CONSTANT_STRIDE = 16;

    private record StructEntry(String type, String field, String typeString, boolean isStatic, long offset,
                               long address) {
    }

    private final List<StructEntry> structs = new ArrayList<>();
    private final Map<String, Long> typeSizes = new LinkedHashMap<>();
    private final Map<String, Long> intConstants = new LinkedHashMap<>();
    private final Map<String, Long> longConstants = new LinkedHashMap<>();

    /** A field at an offset within its type. */
    SyntheticVmStructs field(String type, String field, String typeString, long offset) {
        structs.add(new StructEntry(type, field, typeString, false, offset, 0));
        return this;
    }

    /** A static field: a variable at an address. */
    SyntheticVmStructs staticField(String type, String field, String typeString, long address) {
        structs.add(new StructEntry(type, field, typeString, true, 0, address));
        return this;
    }

    SyntheticVmStructs type(String name, long size) {
        typeSizes.put(name, size);
        return this;
    }

    SyntheticVmStructs intConstant(String name, int value) {
        intConstants.put(name, (long) value);
        return this;
    }

    SyntheticVmStructs longConstant(String name, long value) {
        longConstants.put(name, value);
        return this;
    }

    /**
     * Writes the tables, their strings and the exported variables into {@code memory} from {@code at} upwards.
     *
     * @return libjvm as mapped at {@code at}, with link-time addresses equal to the process's
     */
    LoadedModule layOut(FakeProcessMemory memory, long at) {
        Writer w = new Writer(memory, at);
        ElfImageBuilder libjvm = new ElfImageBuilder();

        long structTable = w.reserve((structs.size() + 1) * STRUCT_STRIDE);
        for (int i = 0; i < structs.size(); i++) {
            StructEntry e = structs.get(i);
            long entry = structTable + (long) i * STRUCT_STRIDE;
            memory.writeLong(entry, w.string(e.type()));
            memory.writeLong(entry + 8, w.string(e.field()));
            memory.writeLong(entry + 16, w.string(e.typeString()));
            memory.writeInt(entry + 24, e.isStatic() ? 1 : 0);
            memory.writeLong(entry + 32, e.offset());
            memory.writeLong(entry + 40, e.address());
        }
        w.export(libjvm, "gHotSpotVMStructs", structTable);
        w.export(libjvm, "gHotSpotVMStructEntryTypeNameOffset", 0);
        w.export(libjvm, "gHotSpotVMStructEntryFieldNameOffset", 8);
        w.export(libjvm, "gHotSpotVMStructEntryTypeStringOffset", 16);
        w.export(libjvm, "gHotSpotVMStructEntryIsStaticOffset", 24);
        w.export(libjvm, "gHotSpotVMStructEntryOffsetOffset", 32);
        w.export(libjvm, "gHotSpotVMStructEntryAddressOffset", 40);
        w.export(libjvm, "gHotSpotVMStructEntryArrayStride", STRUCT_STRIDE);

        long typeTable = w.reserve((typeSizes.size() + 1) * TYPE_STRIDE);
        int i = 0;
        for (Map.Entry<String, Long> t : typeSizes.entrySet()) {
            long entry = typeTable + (long) i++ * TYPE_STRIDE;
            memory.writeLong(entry, w.string(t.getKey()));
            memory.writeLong(entry + 32, t.getValue());
        }
        w.export(libjvm, "gHotSpotVMTypes", typeTable);
        w.export(libjvm, "gHotSpotVMTypeEntryTypeNameOffset", 0);
        w.export(libjvm, "gHotSpotVMTypeEntrySizeOffset", 32);
        w.export(libjvm, "gHotSpotVMTypeEntryArrayStride", TYPE_STRIDE);

        writeConstants(w, libjvm, "gHotSpotVMIntConstant", intConstants);
        writeConstants(w, libjvm, "gHotSpotVMLongConstant", longConstants);

        var elf = libjvm.build();
        return new LoadedModule(new ElfModuleImage("libjvm.so", () -> elf), at, w.next, 0);
    }

    /**
     * A constant table. Values are written as 8 bytes in both tables: an int constant is read from the low 4, which
     * little-endian order puts first.
     */
    private void writeConstants(Writer w, ElfImageBuilder libjvm, String prefix, Map<String, Long> constants) {
        long table = w.reserve((constants.size() + 1) * CONSTANT_STRIDE);
        int i = 0;
        for (Map.Entry<String, Long> c : constants.entrySet()) {
            long entry = table + (long) i++ * CONSTANT_STRIDE;
            w.memory.writeLong(entry, w.string(c.getKey()));
            w.memory.writeLong(entry + 8, c.getValue());
        }
        w.export(libjvm, prefix + "s", table);
        w.export(libjvm, prefix + "EntryNameOffset", 0);
        w.export(libjvm, prefix + "EntryValueOffset", 8);
        w.export(libjvm, prefix + "EntryArrayStride", CONSTANT_STRIDE);
    }

    /** Allocates upwards in the fake memory; all-zero space is a table's terminating entry. */
    private static final class Writer {
        private final FakeProcessMemory memory;
        private long next;

        Writer(FakeProcessMemory memory, long at) {
            this.memory = memory;
            this.next = at;
        }

        long reserve(long bytes) {
            long at = next;
            memory.map(at, bytes);
            next = (at + bytes + 15) & ~15L;
            return at;
        }

        long string(String s) {
            long at = reserve(s.length() + 1);
            memory.writeCString(at, s);
            return at;
        }

        /** An exported variable holding {@code value}. */
        void export(ElfImageBuilder libjvm, String symbol, long value) {
            long variable = reserve(8);
            memory.writeLong(variable, value);
            libjvm.symbol(symbol, variable);
        }
    }
}
