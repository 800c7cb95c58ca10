package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads Java objects in a JVM's heap from outside: an object's class, a named instance field (its offset found in
 * the class's field metadata, walking up to the superclasses, since offsets depend on the heap's flags), and
 * {@code java.lang.String} values. Used for what the JVM keeps only in Java objects, such as a thread's name.
 */
final class JavaHeapReader {
    private static final int MAX_STRING_BYTES = 64 * 1024;
    private static final int MAX_SUPERS = 32;
    /** Strings read with others in one request at most this long; a longer one is read alone. */
    private static final int GATHERED_STRING_BYTES = 4096;
    /** The bytes of the Strings gathered by one call at most; the rest are read one by one. */
    private static final int GATHERED_BYTES = 1 << 20;

    private final VmReader reader;
    private final boolean compressedOops;
    private final long oopBase;
    private final int oopShift;
    private final boolean compressedClassPointers;
    private final boolean compactHeaders;
    private final long klassBase;
    private final int klassShift;
    private final long markKlassShift;
    private final long klassOffsetInOop;
    private final long klassSuper;
    private final long klassLayoutHelper;
    private final long instanceKlassConstants;
    private final long poolSize;
    private final long symbolLength;
    private final long symbolBody;
    private final long arrayData;
    private final FieldLayout fields;
    private final Map<Long, Map<String, Integer>> fieldOffsets = new HashMap<>();

    JavaHeapReader(VmStructs vm, HotSpotLayout layout, VmReader reader) throws UnsupportedVmException, MemoryReadException {
        this.reader = reader;
        JvmFlags flags = new JvmFlags(vm, reader, "UseCompressedOops", "UseCompressedClassPointers",
                "UseCompactObjectHeaders");
        this.compressedOops = flags.bool("UseCompressedOops").orElse(0) != 0;
        this.compressedClassPointers = flags.bool("UseCompressedClassPointers").orElse(1) != 0;
        this.compactHeaders = flags.bool("UseCompactObjectHeaders").orElse(0) != 0;
        this.oopBase = compressedOops ? reader.readLong(staticAddress(vm, "CompressedOops", "_base", "_narrow_oop._base")) : 0;
        this.oopShift = compressedOops ? reader.s32(staticAddress(vm, "CompressedOops", "_shift", "_narrow_oop._shift")) : 0;
        this.klassBase = reader.readLong(staticAddress(vm, "CompressedKlassPointers", "_base", "_narrow_klass._base"));
        this.klassShift = reader.s32(staticAddress(vm, "CompressedKlassPointers", "_shift", "_narrow_klass._shift"));
        this.markKlassShift = vm.constant("markWord::klass_shift").orElse(42);
        this.klassOffsetInOop = field(vm, "oopDesc", "_metadata._compressed_klass");
        this.klassSuper = field(vm, "Klass", "_super");
        this.klassLayoutHelper = field(vm, "Klass", "_layout_helper");
        this.instanceKlassConstants = field(vm, "InstanceKlass", "_constants");
        this.poolSize = layout.poolSize;
        this.symbolLength = layout.symbolLength;
        this.symbolBody = layout.symbolBody;
        this.arrayData = field(vm, "Array<u1>", "_data");
        this.fields = vm.field("InstanceKlass", "_fieldinfo_stream").isPresent()
                ? new StreamFieldLayout(vm, layout) : new ArrayFieldLayout(vm);
    }

    /** The same layout read through another reader, for another thread: no table of the JVM is read again. */
    private JavaHeapReader(JavaHeapReader from, VmReader reader) {
        this.reader = reader;
        this.compressedOops = from.compressedOops;
        this.oopBase = from.oopBase;
        this.oopShift = from.oopShift;
        this.compressedClassPointers = from.compressedClassPointers;
        this.compactHeaders = from.compactHeaders;
        this.klassBase = from.klassBase;
        this.klassShift = from.klassShift;
        this.markKlassShift = from.markKlassShift;
        this.klassOffsetInOop = from.klassOffsetInOop;
        this.klassSuper = from.klassSuper;
        this.klassLayoutHelper = from.klassLayoutHelper;
        this.instanceKlassConstants = from.instanceKlassConstants;
        this.poolSize = from.poolSize;
        this.symbolLength = from.symbolLength;
        this.symbolBody = from.symbolBody;
        this.arrayData = from.arrayData;
        this.fields = from.fields;
    }

    /** This reader's layout over {@code other}: its own field-offset cache, so that two threads may each use one. */
    JavaHeapReader withReader(VmReader other) {
        return new JavaHeapReader(this, other);
    }

    private static long staticAddress(VmStructs vm, String type, String... names) throws UnsupportedVmException {
        for (String n : names) {
            var f = vm.field(type, n);
            if (f.isPresent() && f.get().isStatic()) {
                return f.get().address();
            }
        }
        throw new UnsupportedVmException("the JVM does not describe " + type + "::" + names[0]);
    }

    private static long field(VmStructs vm, String type, String name) throws UnsupportedVmException {
        return vm.requiredField(type, name).offset();
    }

    /** The object a reference field of {@code object} points to, or 0. */
    long referenceField(long object, String fieldName) throws MemoryReadException {
        int offset = fieldOffset(klassOf(object), fieldName);
        if (offset < 0) {
            return 0;
        }
        return referenceFromWord(compressedOops ? reader.s32(object + offset) : reader.readLong(object + offset));
    }

    /** A {@code java.lang.String}'s value, or null: {@link #strings} for one. */
    String string(long string) {
        String[] value = new String[1];
        strings(new long[] {string}, 1, value);
        return value[0];
    }

    private long klassOf(long object) throws MemoryReadException {
        return klassFromWord(reader.readLong(compactHeaders ? object : object + klassOffsetInOop));
    }

    /** The class an object's header word names: its mark word, or the word at its class pointer. */
    private long klassFromWord(long word) {
        if (compactHeaders) {
            return klassBase + ((word >>> markKlassShift) << klassShift);
        }
        return compressedClassPointers ? klassBase + ((word & 0xffffffffL) << klassShift) : word;
    }

    /** The object a reference field's word points to (its low half where oops are compressed), or 0. */
    private long referenceFromWord(long word) {
        if (!compressedOops) {
            return word;
        }
        long narrow = word & 0xffffffffL;
        return narrow == 0 ? 0 : oopBase + (narrow << oopShift);
    }

    /**
     * The reference field {@code fieldName} of each of {@code objects[0, count)} (0s skipped) into
     * {@code references}, 0 where it could not be read: two gathered reads for all of them (their classes, then the
     * fields), where one object after another would take three reads each.
     */
    void referenceFields(long[] objects, int count, String fieldName, long[] references) {
        long[] addresses = new long[count];
        long[] words = new long[count];
        boolean[] read = new boolean[count];
        for (int i = 0; i < count; i++) {
            addresses[i] = objects[i] == 0 ? 0 : compactHeaders ? objects[i] : objects[i] + klassOffsetInOop;
        }
        reader.memory().readWords(addresses, count, words, read);
        for (int i = 0; i < count; i++) {
            int offset = -1;
            if (addresses[i] != 0 && read[i]) {
                try {
                    offset = fieldOffset(klassFromWord(words[i]), fieldName);
                } catch (MemoryReadException e) {
                    offset = -1;
                }
            }
            addresses[i] = offset < 0 ? 0 : objects[i] + offset;
        }
        reader.memory().readWords(addresses, count, words, read);
        for (int i = 0; i < count; i++) {
            references[i] = addresses[i] == 0 || !read[i] ? 0 : referenceFromWord(words[i]);
        }
    }

    /**
     * The values of the {@code String}s at {@code strings[0, count)} into {@code values}, null where one could not be
     * read: their fields, their arrays' lengths and (up to {@value #GATHERED_STRING_BYTES} bytes each,
     * {@value #GATHERED_BYTES} in all) their arrays' bytes in gathered reads; a longer one read alone.
     */
    void strings(long[] strings, int count, String[] values) {
        long[] arrays = new long[count];
        referenceFields(strings, count, "value", arrays);
        long[] addresses = new long[count];
        long[] coders = new long[count];
        long[] lengths = new long[count];
        boolean[] coderRead = new boolean[count];
        boolean[] lengthRead = new boolean[count];
        long lengthOffset = compactHeaders ? 8 : compressedClassPointers ? 12 : 16;
        for (int i = 0; i < count; i++) {
            addresses[i] = arrays[i] == 0 ? 0 : arrays[i] + lengthOffset;
        }
        reader.memory().readWords(addresses, count, lengths, lengthRead);
        int coderOffset = -1;
        for (int i = 0; i < count && coderOffset < 0; i++) {
            try {
                coderOffset = arrays[i] == 0 ? -1 : fieldOffset(klassOf(strings[i]), "coder");
            } catch (MemoryReadException e) {
                coderOffset = -1;
            }
        }
        for (int i = 0; i < count; i++) {
            addresses[i] = arrays[i] == 0 || coderOffset < 0 ? 0 : strings[i] + coderOffset;
        }
        reader.memory().readWords(addresses, count, coders, coderRead);
        // The arrays' bytes: short ones (names) gathered into one buffer, a long one read alone, as are those past
        // the buffer's bound.
        int base = -1;
        long[] starts = new long[count];
        int[] spanLengths = new int[count];
        int[] offsets = new int[count];
        int[] of = new int[count];
        boolean[] spanRead = new boolean[count];
        int spans = 0;
        int total = 0;
        for (int i = 0; i < count; i++) {
            values[i] = null;
            int length = (int) lengths[i];
            if (arrays[i] == 0 || !lengthRead[i] || length < 0 || length > MAX_STRING_BYTES
                    || coderOffset >= 0 && !coderRead[i]) {
                continue;
            }
            try {
                if (base < 0) {
                    // Every String's array is a byte[]: its data's offset, read once.
                    base = (reader.s32(klassOf(arrays[i]) + klassLayoutHelper) >> 16) & 0xff;
                }
            } catch (MemoryReadException e) {
                return;
            }
            if (length > GATHERED_STRING_BYTES || total + length > GATHERED_BYTES) {
                byte[] bytes = new byte[length];
                if (reader.memory().readFully(arrays[i] + base, bytes, 0, length)) {
                    values[i] = decoded(bytes, 0, length, coderOffset < 0 ? 0 : (int) (coders[i] & 0xff));
                }
                continue;
            }
            starts[spans] = arrays[i] + base;
            spanLengths[spans] = length;
            offsets[spans] = total;
            of[spans++] = i;
            total += length;
        }
        byte[] bytes = new byte[total];
        reader.memory().readSpans(starts, spanLengths, spans, bytes, offsets, spanRead);
        for (int k = 0; k < spans; k++) {
            if (spanRead[k]) {
                int i = of[k];
                values[i] = decoded(bytes, offsets[k], spanLengths[k], coderOffset < 0 ? 0 : (int) (coders[i] & 0xff));
            }
        }
    }

    private static String decoded(byte[] bytes, int offset, int length, int coder) {
        return new String(bytes, offset, length, coder == 0 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_16LE);
    }

    /** The offset of an instance field declared by the class or a superclass, or -1. */
    private int fieldOffset(long klass, String name) throws MemoryReadException {
        Map<String, Integer> known = fieldOffsets.get(klass);
        if (known == null) {
            known = new HashMap<>();
            fieldOffsets.put(klass, known);
        }
        Integer cached = known.get(name);
        if (cached != null) {
            return cached;
        }
        int offset = -1;
        long k = klass;
        for (int depth = 0; depth < MAX_SUPERS && k != 0 && offset < 0; depth++) {
            long pool = reader.readLong(k + instanceKlassConstants);
            offset = fields.find(reader, k, pool, name, this);
            k = reader.readLong(k + klassSuper);
        }
        known.put(name, offset);
        return offset;
    }

    /** A constant pool's symbol at an index. */
    String poolSymbol(long pool, int index) throws MemoryReadException {
        long symbol = reader.readLong(pool + poolSize + 8L * index);
        int length = reader.u16(symbol + symbolLength);
        return reader.utf8(symbol + symbolBody, length);
    }

    long arrayData() {
        return arrayData;
    }

    /** How a class's fields are described: an array of u2 records (JDK 17) or a compressed stream (JDK 21+). */
    private interface FieldLayout {
        int find(VmReader reader, long klass, long pool, String name, JavaHeapReader heap) throws MemoryReadException;
    }

    private static final class ArrayFieldLayout implements FieldLayout {
        private static final int ACC_STATIC = 0x0008;
        private final long fieldsPtr;
        private final long countOffset;
        private final int slots;
        private final int nameSlot;
        private final int accessSlot;
        private final int lowSlot;
        private final int highSlot;
        private final int tagSize;
        private final int tagOffset;

        ArrayFieldLayout(VmStructs vm) throws UnsupportedVmException {
            fieldsPtr = field(vm, "InstanceKlass", "_fields");
            countOffset = field(vm, "InstanceKlass", "_java_fields_count");
            slots = (int) constant(vm, "FieldInfo::field_slots");
            nameSlot = (int) constant(vm, "FieldInfo::name_index_offset");
            accessSlot = (int) constant(vm, "FieldInfo::access_flags_offset");
            lowSlot = (int) constant(vm, "FieldInfo::low_packed_offset");
            highSlot = (int) constant(vm, "FieldInfo::high_packed_offset");
            tagSize = (int) constant(vm, "FIELDINFO_TAG_SIZE");
            tagOffset = (int) constant(vm, "FIELDINFO_TAG_OFFSET");
        }

        @Override
        public int find(VmReader r, long klass, long pool, String name, JavaHeapReader heap) throws MemoryReadException {
            long array = r.readLong(klass + fieldsPtr);
            int count = r.u16(klass + countOffset);
            if (array == 0 || count > 4096) {
                return -1;
            }
            long data = array + heap.arrayData();
            for (int i = 0; i < count; i++) {
                long record = data + 2L * slots * i;
                int access = r.u16(record + 2L * accessSlot);
                if ((access & ACC_STATIC) != 0) {
                    continue;
                }
                int low = r.u16(record + 2L * lowSlot);
                if ((low & ((1 << tagSize) - 1)) != tagOffset) {
                    continue;
                }
                if (heap.poolSymbol(pool, r.u16(record + 2L * nameSlot)).equals(name)) {
                    int high = r.u16(record + 2L * highSlot);
                    return ((high << 16) | low) >> tagSize;
                }
            }
            return -1;
        }
    }

    private static final class StreamFieldLayout implements FieldLayout {
        private static final int ACC_STATIC = 0x0008;
        private final long streamPtr;
        private final int initialized;
        private final int generic;
        private final int contended;
        private final boolean excludesZero;

        StreamFieldLayout(VmStructs vm, HotSpotLayout layout) throws UnsupportedVmException {
            streamPtr = field(vm, "InstanceKlass", "_fieldinfo_stream");
            initialized = (int) constant(vm, "FieldInfo::FieldFlags::_ff_initialized");
            generic = (int) constant(vm, "FieldInfo::FieldFlags::_ff_generic");
            contended = (int) constant(vm, "FieldInfo::FieldFlags::_ff_contended");
            excludesZero = layout.unsigned5ExcludesZero;
        }

        @Override
        public int find(VmReader r, long klass, long pool, String name, JavaHeapReader heap) throws MemoryReadException {
            long array = r.readLong(klass + streamPtr);
            if (array == 0) {
                return -1;
            }
            int length = r.s32(array);
            if (length <= 0 || length > 1 << 20) {
                return -1;
            }
            byte[] bytes = new byte[length];
            if (!r.memory().readFully(array + heap.arrayData(), bytes, 0, length)) {
                return -1;
            }
            CompressedStream s = new CompressedStream(ByteBuffer.wrap(bytes), 0, excludesZero);
            int javaFields = s.readUnsigned();
            s.readUnsigned();
            for (int i = 0; i < javaFields; i++) {
                int nameIndex = s.readUnsigned();
                s.readUnsigned();
                int offset = s.readUnsigned();
                int access = s.readUnsigned();
                int flags = s.readUnsigned();
                if ((flags & (1 << initialized)) != 0) {
                    s.readUnsigned();
                }
                if ((flags & (1 << generic)) != 0) {
                    s.readUnsigned();
                }
                if ((flags & (1 << contended)) != 0) {
                    s.readUnsigned();
                }
                if ((access & ACC_STATIC) == 0 && heap.poolSymbol(pool, nameIndex).equals(name)) {
                    return offset;
                }
            }
            return -1;
        }
    }

    private static long constant(VmStructs vm, String name) throws UnsupportedVmException {
        return vm.requiredConstant(name);
    }
}
