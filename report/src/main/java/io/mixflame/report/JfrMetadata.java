package io.mixflame.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The types a {@link JfrProfileWriter} file declares, as the body of JFR's metadata event: a string table, then a
 * tree of elements ({@code root} → {@code metadata} → {@code class} → {@code field}/{@code annotation}, and
 * {@code region}) whose names and attribute values index that table.
 *
 * <p>Every type has the JDK's name and the JDK's fields in the JDK's order (the leading ones where the JDK has more
 * that are never written: a thread's group, a package's module), because async-profiler's converter reads the
 * constant pools of threads, classes, methods and stack traces by position. The ids are this writer's own; readers
 * go by name. Ids 0 and 1 are the metadata and checkpoint events', so types start at 2.
 */
final class JfrMetadata {

    static final long BOOLEAN = 2;
    static final long INT = 3;
    static final long LONG = 4;
    static final long STRING = 5;
    static final long LABEL = 6;
    static final long TIMESTAMP = 7;
    static final long THREAD = 8;
    static final long CLASS = 9;
    static final long CLASS_LOADER = 10;
    static final long PACKAGE = 11;
    static final long SYMBOL = 12;
    static final long METHOD = 13;
    static final long FRAME_TYPE = 14;
    static final long THREAD_STATE = 15;
    static final long STACK_FRAME = 16;
    static final long STACK_TRACE = 17;
    static final long EXECUTION_SAMPLE = 18;
    static final long ACTIVE_SETTING = 19;
    static final long NOTE = 20;
    static final long OBJECT_ALLOCATION_SAMPLE = 21;
    static final long JAVA_MONITOR_ENTER = 22;
    static final long THREAD_PARK = 23;
    static final long TIMESPAN = 24;
    static final long DATA_AMOUNT = 25;
    static final long SAMPLE_LABELS = 26;

    private static final String EVENT = "jdk.jfr.Event";
    private static final String ANNOTATION = "java.lang.annotation.Annotation";

    private JfrMetadata() {
    }

    /** The metadata event's body after its type id: start time, duration, metadata id, strings, element tree. */
    static void writeBody(JfrBuffer out, long startTicks) throws IOException {
        Element root = root();
        Map<String, Integer> strings = new LinkedHashMap<>();
        root.collectStrings(strings);
        // Readers compare the id only with the previous chunk's; async-profiler's, which every reader takes.
        out.putVarLong(startTicks).putVarLong(0).putVarLong(0x7fff_ffffL);
        out.putVarLong(strings.size());
        for (String s : strings.keySet()) {
            out.putString(s);
        }
        root.writeTo(out, strings);
    }

    private static Element root() {
        Element metadata = new Element("metadata")
                .add(type("boolean", BOOLEAN))
                .add(type("int", INT))
                .add(type("long", LONG))
                .add(type("java.lang.String", STRING))
                .add(type("jdk.jfr.Label", LABEL).attr("superType", ANNOTATION).add(field("value", STRING)))
                .add(type("jdk.jfr.Timestamp", TIMESTAMP).attr("superType", ANNOTATION).add(field("value", STRING)))
                .add(type("jdk.jfr.Timespan", TIMESPAN).attr("superType", ANNOTATION).add(field("value", STRING)))
                .add(type("jdk.jfr.DataAmount", DATA_AMOUNT).attr("superType", ANNOTATION).add(field("value", STRING)))
                .add(type("java.lang.Thread", THREAD)
                        .add(field("osName", STRING)).add(field("osThreadId", LONG))
                        .add(field("javaName", STRING)).add(field("javaThreadId", LONG)))
                .add(type("java.lang.Class", CLASS)
                        .add(pooled("classLoader", CLASS_LOADER)).add(pooled("name", SYMBOL))
                        .add(pooled("package", PACKAGE)).add(field("modifiers", INT)).add(field("hidden", BOOLEAN)))
                .add(type("jdk.types.ClassLoader", CLASS_LOADER)
                        .add(pooled("type", CLASS)).add(pooled("name", SYMBOL)))
                .add(type("jdk.types.Package", PACKAGE).add(pooled("name", SYMBOL)))
                .add(simpleType("jdk.types.Symbol", SYMBOL).add(field("string", STRING)))
                .add(type("jdk.types.Method", METHOD)
                        .add(pooled("type", CLASS)).add(pooled("name", SYMBOL)).add(pooled("descriptor", SYMBOL))
                        .add(field("modifiers", INT)).add(field("hidden", BOOLEAN)))
                .add(simpleType("jdk.types.FrameType", FRAME_TYPE).add(field("description", STRING)))
                .add(simpleType("jdk.types.ThreadState", THREAD_STATE).add(field("name", STRING)))
                .add(type("jdk.types.StackFrame", STACK_FRAME)
                        .add(pooled("method", METHOD)).add(field("lineNumber", INT))
                        .add(field("bytecodeIndex", INT)).add(pooled("type", FRAME_TYPE)))
                .add(type("jdk.types.StackTrace", STACK_TRACE)
                        .add(field("truncated", BOOLEAN)).add(field("frames", STACK_FRAME).attr("dimension", "1")))
                .add(event(JfrProfileWriter.EXECUTION_SAMPLE, EXECUTION_SAMPLE, "Method Profiling Sample")
                        .add(pooled("sampledThread", THREAD)).add(pooled("stackTrace", STACK_TRACE))
                        .add(pooled("state", THREAD_STATE)))
                .add(event(JfrProfileWriter.OBJECT_ALLOCATION_SAMPLE, OBJECT_ALLOCATION_SAMPLE, "Object Allocation Sample")
                        .add(pooled("eventThread", THREAD)).add(pooled("stackTrace", STACK_TRACE))
                        .add(pooled("objectClass", CLASS)).add(field("weight", LONG).add(new Element("annotation")
                                .attr("class", Long.toString(DATA_AMOUNT)).attr("value", "BYTES"))))
                .add(durationEvent(JfrProfileWriter.JAVA_MONITOR_ENTER, JAVA_MONITOR_ENTER, "Java Monitor Blocked")
                        .add(pooled("eventThread", THREAD)).add(pooled("stackTrace", STACK_TRACE))
                        .add(pooled("monitorClass", CLASS)).add(pooled("previousOwner", THREAD))
                        .add(field("address", LONG)))
                .add(durationEvent(JfrProfileWriter.THREAD_PARK, THREAD_PARK, "Java Thread Park")
                        .add(pooled("eventThread", THREAD)).add(pooled("stackTrace", STACK_TRACE))
                        .add(pooled("parkedClass", CLASS)).add(field("timeout", LONG)).add(field("until", LONG))
                        .add(field("address", LONG)))
                // async-profiler's layout of a setting (the converter reads the longs up to "id", then two strings).
                .add(event(JfrProfileWriter.ACTIVE_SETTING, ACTIVE_SETTING, "Recording Setting")
                        .add(field("id", LONG)).add(field("name", STRING)).add(field("value", STRING)))
                .add(event(JfrProfileWriter.NOTE, NOTE, "mixflame Note").add(field("text", STRING)))
                // Not a field of the sample events: async-profiler's converter reads those by position and goes on
                // to the next event from where its fields end, so one more field would break every file it reads.
                .add(event(JfrProfileWriter.SAMPLE_LABELS, SAMPLE_LABELS, "mixflame Sample Labels")
                        .add(pooled("eventThread", THREAD)).add(pooled("stackTrace", STACK_TRACE))
                        .add(field("labels", STRING)).add(field("traceId", STRING)).add(field("spanId", STRING))
                        .add(field("spanName", STRING)));
        Element region = new Element("region").attr("locale", "en_US").attr("gmtOffset", "0");
        return new Element("root").add(metadata).add(region);
    }

    private static Element type(String name, long id) {
        return new Element("class").attr("name", name).attr("id", Long.toString(id));
    }

    /** A type that readers show as the value of its one field (a symbol as its string). */
    private static Element simpleType(String name, long id) {
        return type(name, id).attr("simpleType", "true");
    }

    /** An event type: its first field is its start time in ticks, as every reader assumes. */
    private static Element event(String name, long id, String label) {
        return type(name, id).attr("superType", EVENT)
                .add(new Element("annotation").attr("class", Long.toString(LABEL)).attr("value", label))
                .add(field("startTime", LONG)
                        .add(new Element("annotation").attr("class", Long.toString(TIMESTAMP)).attr("value", "TICKS")));
    }

    /** An event type that lasts: its second field is its duration in ticks, as the JDK lays out such events. */
    private static Element durationEvent(String name, long id, String label) {
        return event(name, id, label).add(field("duration", LONG)
                .add(new Element("annotation").attr("class", Long.toString(TIMESPAN)).attr("value", "TICKS")));
    }

    private static Element field(String name, long type) {
        return new Element("field").attr("name", name).attr("class", Long.toString(type));
    }

    /** A field holding a constant's key. The JDK takes any value of the attribute as true, so it is left out otherwise. */
    private static Element pooled(String name, long type) {
        return field(name, type).attr("constantPool", "true");
    }

    /** One element of the metadata tree. */
    private static final class Element {
        private final String name;
        private final Map<String, String> attributes = new LinkedHashMap<>();
        private final List<Element> children = new ArrayList<>();

        Element(String name) {
            this.name = name;
        }

        Element attr(String key, String value) {
            attributes.put(key, value);
            return this;
        }

        Element add(Element child) {
            children.add(child);
            return this;
        }

        void collectStrings(Map<String, Integer> strings) {
            intern(strings, name);
            attributes.forEach((k, v) -> {
                intern(strings, k);
                intern(strings, v);
            });
            for (Element child : children) {
                child.collectStrings(strings);
            }
        }

        void writeTo(JfrBuffer out, Map<String, Integer> strings) throws IOException {
            out.putVarLong(strings.get(name)).putVarLong(attributes.size());
            for (Map.Entry<String, String> a : attributes.entrySet()) {
                out.putVarLong(strings.get(a.getKey())).putVarLong(strings.get(a.getValue()));
            }
            out.putVarLong(children.size());
            for (Element child : children) {
                child.writeTo(out, strings);
            }
        }

        private static void intern(Map<String, Integer> strings, String s) {
            strings.putIfAbsent(s, strings.size());
        }
    }
}
