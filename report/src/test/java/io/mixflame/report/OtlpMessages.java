package io.mixflame.report;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * OTLP profiles as OpenTelemetry's generated classes read them, independently of {@link OtlpWriter}: decoding, the
 * checks every message must pass, and its samples as stacks and attributes. Shared with the end-to-end tests.
 */
public final class OtlpMessages {

    /** Which dictionary table an index field refers to, by the field's name. */
    private static final Map<String, Integer> TABLE_OF_INDEX = Map.of(
            "mapping_index", ProfilesDictionary.MAPPING_TABLE_FIELD_NUMBER,
            "function_index", ProfilesDictionary.FUNCTION_TABLE_FIELD_NUMBER,
            "link_index", ProfilesDictionary.LINK_TABLE_FIELD_NUMBER,
            "stack_index", ProfilesDictionary.STACK_TABLE_FIELD_NUMBER,
            "attribute_indices", ProfilesDictionary.ATTRIBUTE_TABLE_FIELD_NUMBER,
            "location_indices", ProfilesDictionary.LOCATION_TABLE_FIELD_NUMBER);

    private OtlpMessages() {
    }

    /** A request from its bytes, gzip-compressed or not. */
    public static ExportProfilesServiceRequest parse(byte[] body) throws IOException {
        byte[] raw = body;
        if (body.length >= 2 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b) {
            raw = new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
        }
        try {
            return ExportProfilesServiceRequest.parseFrom(raw);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("not an ExportProfilesServiceRequest: " + e.getMessage(), e);
        }
    }

    /**
     * The problems of a message: any field the generated classes do not know, anywhere in its tree; a table whose
     * entry 0 is not the empty one; an index or string index outside its table. Empty when there are none.
     */
    public static List<String> problems(ExportProfilesServiceRequest request) {
        List<String> problems = new ArrayList<>();
        unknownFields(request, "request", problems);
        ProfilesDictionary d = request.getDictionary();
        for (FieldDescriptor table : ProfilesDictionary.getDescriptor().getFields()) {
            int size = d.getRepeatedFieldCount(table);
            if (size == 0) {
                problems.add(table.getName() + " is empty: entry 0 is missing");
                continue;
            }
            Object first = d.getRepeatedField(table, 0);
            boolean empty = first instanceof Message m ? m.equals(m.getDefaultInstanceForType()) : "".equals(first);
            if (!empty) {
                problems.add(table.getName() + "[0] is not empty: " + first);
            }
        }
        indexes(request, "request", d, problems);
        return problems;
    }

    private static void unknownFields(Message m, String path, List<String> problems) {
        if (!m.getUnknownFields().asMap().isEmpty()) {
            problems.add(path + " has unknown fields " + m.getUnknownFields().asMap().keySet());
        }
        for (Map.Entry<FieldDescriptor, Object> f : m.getAllFields().entrySet()) {
            if (f.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            if (f.getKey().isRepeated()) {
                List<?> items = (List<?>) f.getValue();
                for (int i = 0; i < items.size(); i++) {
                    unknownFields((Message) items.get(i), path + "." + f.getKey().getName() + "[" + i + "]", problems);
                }
            } else {
                unknownFields((Message) f.getValue(), path + "." + f.getKey().getName(), problems);
            }
        }
    }

    private static void indexes(Message m, String path, ProfilesDictionary d, List<String> problems) {
        for (Map.Entry<FieldDescriptor, Object> f : m.getAllFields().entrySet()) {
            FieldDescriptor field = f.getKey();
            List<?> values = field.isRepeated() ? (List<?>) f.getValue() : List.of(f.getValue());
            String name = field.getName();
            for (int i = 0; i < values.size(); i++) {
                Object v = values.get(i);
                String at = path + "." + name + (field.isRepeated() ? "[" + i + "]" : "");
                if (v instanceof Message inner) {
                    indexes(inner, at, d, problems);
                    continue;
                }
                int size = -1;
                if (name.endsWith("_strindex")) {
                    size = d.getStringTableCount();
                } else if (TABLE_OF_INDEX.containsKey(name)) {
                    size = d.getRepeatedFieldCount(ProfilesDictionary.getDescriptor()
                            .findFieldByNumber(TABLE_OF_INDEX.get(name)));
                }
                if (size >= 0) {
                    long index = ((Number) v).longValue();
                    if (index < 0 || index >= size) {
                        problems.add(at + " = " + index + " is outside its table of " + size);
                    }
                }
            }
        }
    }

    /** The resource's attributes as strings. */
    public static Map<String, String> resourceAttributes(ExportProfilesServiceRequest request) {
        Map<String, String> result = new LinkedHashMap<>();
        for (KeyValue kv : request.getResourceProfiles(0).getResource().getAttributesList()) {
            result.put(kv.getKey(), kv.getValue().getStringValue());
        }
        return result;
    }

    /** Each profile's sample type as {@code type/unit}, in order. */
    public static List<String> sampleTypes(ExportProfilesServiceRequest request) {
        List<String> types = new ArrayList<>();
        ProfilesDictionary d = request.getDictionary();
        for (var p : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
            types.add(d.getStringTable(p.getSampleType().getTypeStrindex()) + "/"
                    + d.getStringTable(p.getSampleType().getUnitStrindex()));
        }
        return types;
    }

    /**
     * The samples of the profile of sample type {@code type/unit} as collapsed stacks, root first, each
     * preceded by {@code [thread.name]} when the sample names its thread: stack to the sum of its values.
     */
    public static Map<String, Long> stacks(ExportProfilesServiceRequest request, String sampleType) {
        Map<String, Long> result = new TreeMap<>();
        ProfilesDictionary d = request.getDictionary();
        for (var p : profiles(request, sampleType)) {
            for (Sample s : p.getSamplesList()) {
                String stack = stackOf(d, s);
                List<String> frames = new ArrayList<>(stack.isEmpty() ? List.of() : List.of(stack.split(";", -1)));
                String thread = attributes(d, s).get(OtlpWriter.THREAD_NAME);
                if (thread != null) {
                    frames.add(0, "[" + thread + "]");
                }
                long value = 0;
                for (long v : s.getValuesList()) {
                    value += v;
                }
                result.merge(String.join(";", frames), value, Long::sum);
            }
        }
        return result;
    }

    /** A sample's frames, root first, joined by {@code ;}. */
    public static String stackOf(ProfilesDictionary d, Sample s) {
        List<String> frames = new ArrayList<>();
        List<Integer> locations = d.getStackTable(s.getStackIndex()).getLocationIndicesList();
        for (int i = locations.size() - 1; i >= 0; i--) {
            Location l = d.getLocationTable(locations.get(i));
            frames.add(d.getStringTable(d.getFunctionTable(l.getLines(0).getFunctionIndex()).getNameStrindex()));
        }
        return String.join(";", frames);
    }

    /** Each sample's attributes, key to value as text, of the profiles of sample type {@code type/unit}. */
    public static List<Map<String, String>> sampleAttributes(ExportProfilesServiceRequest request, String sampleType) {
        List<Map<String, String>> result = new ArrayList<>();
        for (var p : profiles(request, sampleType)) {
            for (Sample s : p.getSamplesList()) {
                result.add(attributes(request.getDictionary(), s));
            }
        }
        return result;
    }

    private static List<io.opentelemetry.proto.profiles.v1development.Profile> profiles(
            ExportProfilesServiceRequest request, String sampleType) {
        List<io.opentelemetry.proto.profiles.v1development.Profile> result = new ArrayList<>();
        List<String> types = sampleTypes(request);
        var all = request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList();
        for (int i = 0; i < all.size(); i++) {
            if (types.get(i).equals(sampleType)) {
                result.add(all.get(i));
            }
        }
        return result;
    }

    private static Map<String, String> attributes(ProfilesDictionary d, Sample s) {
        Map<String, String> result = new LinkedHashMap<>();
        for (int index : s.getAttributeIndicesList()) {
            KeyValueAndUnit a = d.getAttributeTable(index);
            result.put(d.getStringTable(a.getKeyStrindex()), text(a.getValue()));
        }
        return result;
    }

    /** A value as text: strings as they are, numbers in decimal. */
    public static String text(AnyValue v) {
        return v.hasIntValue() ? Long.toString(v.getIntValue()) : v.getStringValue();
    }
}
