package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * Stub names from the entry points the JVM's tables export as static {@code address} fields of
 * {@code StubRoutines} ({@code StubRoutines::_jint_arraycopy} holds that stub's entry): for a JVM whose library
 * has no symbol table (jvm.dll exports only its tables). A stub is named after its field without the leading
 * underscore and reaches from its entry to the next entry known in the same code blob, or to the blob's end.
 */
final class StubEntryFields {
    private static final String TYPE = "StubRoutines";

    private StubEntryFields() {
    }

    /**
     * Where each stub's entry is kept: the static {@code address} fields of {@code StubRoutines}, by the stub's name,
     * in name order. Taken once, so that what reads them again keeps these few hundred addresses rather than the
     * JVM's whole description of itself.
     */
    static Map<String, Long> fields(VmStructs structs) {
        Map<String, Long> fields = new TreeMap<>();
        for (Map.Entry<String, VmStructs.Field> f : new TreeMap<>(structs.fieldsOf(TYPE)).entrySet()) {
            VmStructs.Field field = f.getValue();
            // A return address inside a stub (the call stub's) is no entry.
            if (field.isStatic() && "address".equals(field.typeString().trim())
                    && !f.getKey().endsWith("_return_address")) {
                fields.put(f.getKey().startsWith("_") ? f.getKey().substring(1) : f.getKey(), field.address());
            }
        }
        return fields;
    }

    /**
     * The stubs whose entries the {@link #fields} hold now (a field is 0 until its stub is generated).
     *
     * @param blobs the code blob of an address, or null
     */
    static StubRanges read(Map<String, Long> fields, VmReader reader, LongFunction<CodeBlobInfo> blobs) {
        // By entry, and of two fields with one entry the name that sorts first (the map is in name order), so that a
        // name does not change from one reading to the next.
        TreeMap<Long, String> entries = new TreeMap<>();
        for (Map.Entry<String, Long> f : fields.entrySet()) {
            try {
                long entry = reader.readLong(f.getValue());
                if (entry != 0) {
                    entries.putIfAbsent(entry, f.getKey());
                }
            } catch (MemoryReadException e) {
                // Not readable: that stub stays unnamed.
            }
        }
        StubRanges.Builder ranges = new StubRanges.Builder();
        for (Map.Entry<Long, String> e : entries.entrySet()) {
            CodeBlobInfo blob = blobs.apply(e.getKey());
            if (blob == null || blob.isJava()) {
                continue;
            }
            Long next = entries.higherKey(e.getKey());
            long end = next != null && next < blob.end() ? next : blob.end();
            ranges.add(e.getKey(), end, e.getValue());
        }
        return ranges.build();
    }
}
