package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.Profile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.mixflame.report.OtlpFieldNumbers.*;

/**
 * The tables one OTLP profiles message shares between its profiles: the strings, locations and functions pprof has
 * too ({@link ProfileDictionary}), and OTLP's own attributes and stacks, each entry once, entry 0 of each the empty
 * one. Indexes are handed out as entries are first asked for; mappings are placed when the message is written, once
 * every native frame is known ({@link PprofMappings}).
 */
final class OtlpDictionary {
    private final ProfileDictionary shared = new ProfileDictionary();
    private final IndexTable<Attribute> attributes = new IndexTable<>(null);
    private final IndexTable<LocationIndexes> stacks = new IndexTable<>(new LocationIndexes(new int[0]));
    private final List<NativeModule> modules = new ArrayList<>();
    private final IndexTable<Link> links = new IndexTable<>(new Link("", ""));

    /** The index of {@code s} in the string table. */
    int string(String s) {
        return shared.string(s);
    }

    /** The index of the string attribute {@code key} = {@code value}. */
    int attribute(String key, String value) {
        return attribute(new Attribute(key, value, 0, false));
    }

    /** The index of the integer attribute {@code key} = {@code value}. */
    int intAttribute(String key, long value) {
        return attribute(new Attribute(key, null, value, true));
    }

    private int attribute(Attribute a) {
        int before = attributes.size();
        int index = attributes.index(a);
        if (index == before) {
            // Its key is numbered when the attribute is first met, so strings keep the order they are asked for.
            shared.string(a.key());
        }
        return index;
    }

    /**
     * The index of the link to span {@code spanId} of trace {@code traceId} (lower-case hex, as samples' label frames
     * carry them); 0 (no link) where either is not an id of the right length.
     */
    int link(String traceId, String spanId) {
        if (!isHex(traceId, 32) || !isHex(spanId, 16)) {
            return 0;
        }
        return links.index(new Link(traceId, spanId));
    }

    private static boolean isHex(String s, int length) {
        if (s == null || s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The index of the stack of these frames of {@code profile}, given by id, leaf first. */
    int stack(Profile profile, int[] leafFirst) {
        int[] locations = new int[leafFirst.length];
        for (int i = 0; i < locations.length; i++) {
            locations[i] = shared.location(profile, leafFirst[i]);
        }
        return stacks.index(new LocationIndexes(locations));
    }

    /** Modules whose paths and build ids the mappings take; the first of the first list given is the executable. */
    void addModules(List<NativeModule> more) {
        modules.addAll(more);
    }

    /** Writes the {@code ProfilesDictionary} message as field {@code field} of {@code out}. */
    void write(ProtoWriter out, int field) {
        int dictionary = out.begin(field);
        List<Frame> frames = shared.locationFrames();
        PprofMappings mappings = new PprofMappings(frames, modules);

        // Locations and mappings add strings and attributes: written first, the tables of those last (a message's
        // fields may come in any order).
        empty(out, DICTIONARY_MAPPING_TABLE);
        for (PprofMappings.Mapping m : mappings.all()) {
            int mapping = out.begin(DICTIONARY_MAPPING_TABLE);
            out.varint(MAPPING_MEMORY_START, m.start())
                    .varint(MAPPING_MEMORY_LIMIT, m.limit())
                    .varint(MAPPING_FILENAME, string(NameEscaping.printable(m.file())));
            if (!m.buildId().isEmpty()) {
                packed(out, MAPPING_ATTRIBUTE_INDICES,
                        attribute(OtlpWriter.BUILD_ID, NameEscaping.printable(m.buildId())));
            }
            out.end(mapping);
        }

        empty(out, DICTIONARY_LOCATION_TABLE);
        for (Frame frame : frames) {
            int location = out.begin(DICTIONARY_LOCATION_TABLE);
            PprofMappings.Mapping m = mappings.of(frame);
            if (m != null) {
                // Mapping ids are 1..n, and entry 0 of the table is the empty one: an id is its index.
                out.varint(LOCATION_MAPPING_INDEX, m.id()).varint(LOCATION_ADDRESS, mappings.address(frame));
            }
            int line = out.begin(LOCATION_LINES);
            out.varint(LINE_FUNCTION_INDEX, shared.function(frame));
            if (frame.line() > 0) {
                out.varint(LINE_LINE, frame.line());
            }
            out.end(line);
            String kind = OtlpWriter.frameKind(frame.type());
            if (kind != null) {
                packed(out, LOCATION_ATTRIBUTE_INDICES, attribute(OtlpWriter.FRAME_TYPE, kind));
            }
            out.end(location);
        }

        empty(out, DICTIONARY_FUNCTION_TABLE);
        for (ProfileFunction f : shared.functions()) {
            int function = out.begin(DICTIONARY_FUNCTION_TABLE);
            out.varint(FUNCTION_NAME, string(f.name())).varint(FUNCTION_SYSTEM_NAME, string(f.systemName()));
            if (f.file() != null) {
                out.varint(FUNCTION_FILENAME, string(f.file()));
                if (f.startLine() > 0) {
                    out.varint(FUNCTION_START_LINE, f.startLine());
                }
            }
            out.end(function);
        }

        empty(out, DICTIONARY_STACK_TABLE);
        for (LocationIndexes stack : stacks.entries().subList(1, stacks.size())) {
            int message = out.begin(DICTIONARY_STACK_TABLE);
            int indexes = out.begin(STACK_LOCATION_INDICES);
            for (int index : stack.indexes()) {
                out.packedVarint(index);
            }
            out.end(indexes);
            out.end(message);
        }

        empty(out, DICTIONARY_ATTRIBUTE_TABLE);
        for (Attribute a : attributes.entries().subList(1, attributes.size())) {
            int attribute = out.begin(DICTIONARY_ATTRIBUTE_TABLE);
            out.varint(KEY_VALUE_AND_UNIT_KEY, string(a.key()));
            int value = out.begin(KEY_VALUE_AND_UNIT_VALUE);
            if (a.integer()) {
                out.varint(ANY_VALUE_INT, a.number());
            } else {
                out.string(ANY_VALUE_STRING, a.text());
            }
            out.end(value);
            out.end(attribute);
        }

        for (String s : shared.strings()) {
            out.string(DICTIONARY_STRING_TABLE, s);
        }
        // Entry 0 is the empty link: a sample with no span links to it.
        empty(out, DICTIONARY_LINK_TABLE);
        for (Link link : links.entries().subList(1, links.size())) {
            int message = out.begin(DICTIONARY_LINK_TABLE);
            out.bytes(LINK_TRACE_ID, bytes(link.traceId()));
            out.bytes(LINK_SPAN_ID, bytes(link.spanId()));
            out.end(message);
        }
        out.end(dictionary);
    }

    private static void empty(ProtoWriter out, int field) {
        out.end(out.begin(field));
    }

    private static void packed(ProtoWriter out, int field, int index) {
        int run = out.begin(field);
        out.packedVarint(index);
        out.end(run);
    }

    private static byte[] bytes(String hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (Character.digit(hex.charAt(2 * i), 16) << 4 | Character.digit(hex.charAt(2 * i + 1), 16));
        }
        return b;
    }

    /** A link to a span: its trace's id and its own, in hex. */
    private record Link(String traceId, String spanId) {
    }

    /** A string or integer attribute; unit-less. */
    private record Attribute(String key, String text, long number, boolean integer) {
    }

    /** A stack's location indexes, leaf first, compared by content. */
    private record LocationIndexes(int[] indexes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof LocationIndexes k && Arrays.equals(indexes, k.indexes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(indexes);
        }
    }
}
