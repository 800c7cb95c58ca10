package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.NativeModule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import one.proto.Proto;

import static io.mixflame.report.OtlpFieldNumbers.*;

/**
 * The tables one OTLP profiles message shares between its profiles: strings, attributes, stacks, locations, functions
 * and mappings, each entry once, entry 0 of each the empty one. Indexes are handed out as entries are first asked
 * for; mappings are placed when the message is encoded, once every native frame is known ({@link PprofMappings}).
 */
final class OtlpDictionary {
    private final Map<String, Integer> strings = new HashMap<>();
    private final List<String> stringList = new ArrayList<>();
    private final Map<Attribute, Integer> attributes = new HashMap<>();
    private final List<Attribute> attributeList = new ArrayList<>();
    private final Map<StackKey, Integer> stacks = new HashMap<>();
    private final List<int[]> stackList = new ArrayList<>();
    private final Map<Frame, Integer> locations = new HashMap<>();
    private final List<Frame> locationList = new ArrayList<>();
    private final List<NativeModule> modules = new ArrayList<>();

    OtlpDictionary() {
        string("");
        attributeList.add(null);
        stackList.add(new int[0]);
        locationList.add(null);
    }

    /** The index of {@code s} in the string table. */
    int string(String s) {
        Integer index = strings.get(s);
        if (index == null) {
            index = stringList.size();
            strings.put(s, index);
            stringList.add(s);
        }
        return index;
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
        Integer index = attributes.get(a);
        if (index == null) {
            index = attributeList.size();
            attributes.put(a, index);
            attributeList.add(a);
            string(a.key());
        }
        return index;
    }

    /** The index of the stack of these location indexes, leaf first. */
    int stack(int[] locationIndexes) {
        StackKey key = new StackKey(locationIndexes);
        Integer index = stacks.get(key);
        if (index == null) {
            index = stackList.size();
            stacks.put(key, index);
            stackList.add(locationIndexes);
        }
        return index;
    }

    /** The index of the location of {@code frame}. */
    int location(Frame frame) {
        Integer index = locations.get(frame);
        if (index == null) {
            index = locationList.size();
            locations.put(frame, index);
            locationList.add(frame);
        }
        return index;
    }

    /** Modules whose paths and build ids the mappings take; the first of the first list given is the executable. */
    void addModules(List<NativeModule> more) {
        modules.addAll(more);
    }

    /** The {@code ProfilesDictionary} message. */
    Proto encode() {
        Proto empty = new Proto(0);
        List<Frame> frames = locationList.subList(1, locationList.size());
        PprofMappings mappings = new PprofMappings(frames, modules);

        // Locations and mappings add strings and attributes: encoded first, the tables of those last (a message's
        // fields may come in any order).
        Proto dictionary = new Proto(64 * 1024);
        dictionary.field(DICTIONARY_MAPPING_TABLE, empty);
        for (PprofMappings.Mapping m : mappings.all()) {
            Proto mapping = new Proto(32)
                    .field(MAPPING_MEMORY_START, m.start())
                    .field(MAPPING_MEMORY_LIMIT, m.limit())
                    .field(MAPPING_FILENAME, string(NameEscaping.printable(m.file())));
            if (!m.buildId().isEmpty()) {
                mapping.field(MAPPING_ATTRIBUTE_INDICES, packed(attribute(OtlpWriter.BUILD_ID,
                        NameEscaping.printable(m.buildId()))));
            }
            dictionary.field(DICTIONARY_MAPPING_TABLE, mapping);
        }

        Map<Frame, Integer> functions = new HashMap<>();
        List<Frame> functionList = new ArrayList<>();
        functionList.add(null);
        dictionary.field(DICTIONARY_LOCATION_TABLE, empty);
        for (Frame frame : frames) {
            Proto location = new Proto(24);
            PprofMappings.Mapping m = mappings.of(frame);
            if (m != null) {
                // Mapping ids are 1..n, and entry 0 of the table is the empty one: an id is its index.
                location.field(LOCATION_MAPPING_INDEX, m.id()).field(LOCATION_ADDRESS, mappings.address(frame));
            }
            Frame function = frame.atLine(0);
            Integer functionIndex = functions.get(function);
            if (functionIndex == null) {
                functionIndex = functionList.size();
                functions.put(function, functionIndex);
                functionList.add(function);
            }
            Proto line = new Proto(8).field(LINE_FUNCTION_INDEX, functionIndex);
            if (frame.line() > 0) {
                line.field(LINE_LINE, (long) frame.line());
            }
            location.field(LOCATION_LINES, line);
            String kind = OtlpWriter.frameKind(frame.type());
            if (kind != null) {
                location.field(LOCATION_ATTRIBUTE_INDICES, packed(attribute(OtlpWriter.FRAME_TYPE, kind)));
            }
            dictionary.field(DICTIONARY_LOCATION_TABLE, location);
        }

        dictionary.field(DICTIONARY_FUNCTION_TABLE, empty);
        for (Frame frame : functionList.subList(1, functionList.size())) {
            Proto function = new Proto(16)
                    .field(FUNCTION_NAME, string(frame.name()))
                    .field(FUNCTION_SYSTEM_NAME, string(frame.name() + CollapsedFrames.suffix(frame.type())));
            if (frame.type().isJava() && frame.module() != null) {
                function.field(FUNCTION_FILENAME, string(frame.module()));
                if (frame.offset() > 0) {
                    function.field(FUNCTION_START_LINE, frame.offset());
                }
            }
            dictionary.field(DICTIONARY_FUNCTION_TABLE, function);
        }

        dictionary.field(DICTIONARY_STACK_TABLE, empty);
        for (int[] stack : stackList.subList(1, stackList.size())) {
            Proto indexes = new Proto(stack.length * 2 + 2);
            for (int index : stack) {
                indexes.writeInt(index);
            }
            dictionary.field(DICTIONARY_STACK_TABLE, new Proto(indexes.size() + 4)
                    .field(STACK_LOCATION_INDICES, indexes));
        }

        dictionary.field(DICTIONARY_ATTRIBUTE_TABLE, empty);
        for (Attribute a : attributeList.subList(1, attributeList.size())) {
            Proto value = new Proto(16);
            if (a.integer()) {
                value.field(ANY_VALUE_INT, a.number());
            } else {
                value.field(ANY_VALUE_STRING, a.text());
            }
            dictionary.field(DICTIONARY_ATTRIBUTE_TABLE, new Proto(24)
                    .field(KEY_VALUE_AND_UNIT_KEY, string(a.key()))
                    .field(KEY_VALUE_AND_UNIT_VALUE, value));
        }

        for (String s : stringList) {
            dictionary.field(DICTIONARY_STRING_TABLE, s);
        }
        // A link table with its empty entry alone: samples link to no trace.
        dictionary.field(DICTIONARY_LINK_TABLE, empty);
        return dictionary;
    }

    private static Proto packed(int index) {
        Proto p = new Proto(4);
        p.writeInt(index);
        return p;
    }

    /** A string or integer attribute; unit-less. */
    private record Attribute(String key, String text, long number, boolean integer) {
    }

    /** A stack's location indexes as a key, compared by content. */
    private record StackKey(int[] indexes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof StackKey k && Arrays.equals(indexes, k.indexes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(indexes);
        }
    }
}
