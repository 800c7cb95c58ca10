package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.mixflame.report.OtlpFieldNumbers.*;

/**
 * Writes profiles as OpenTelemetry's {@code ExportProfilesServiceRequest} of the profiles signal
 * ({@code opentelemetry.proto.profiles.v1development}, as opentelemetry-proto 1.11 lays it out), uncompressed: the
 * body an OTLP/HTTP receiver takes at {@code /v1development/profiles}, and the layout of {@code ProfilesData} too.
 *
 * <p>One resource (service name and attributes, {@link OtlpResource}) with one scope ({@code mixflame}) holds the
 * profiles, and one dictionary, shared by them all, holds every string, attribute, stack, location, function and
 * mapping; entry 0 of every table is the empty one, as the format asks. Each event gives one profile per value
 * kind, as Go's tools name them ({@link SampleTypes}): {@code samples/count} and {@code cpu/nanoseconds} for
 * cpu, {@code alloc_objects/count} and {@code alloc_space/bytes} for allocations, {@code contentions/count} and
 * {@code delay/nanoseconds} for locks; a profile read from counts alone (no weights) has the count profile only.
 *
 * <p>A sample's thread root frame {@code [name tid=N]} becomes its {@code thread.name} and {@code thread.id}
 * attributes, and each label frame ({@code [endpoint=/checkout]}) an attribute of that key; neither is a location.
 * Native frames get their module's mapping and an address in it, as in pprof ({@link PprofMappings}), the mapping its
 * file and GNU build id ({@code process.executable.build_id.gnu}); every location says its kind in
 * {@code profile.frame.type} ({@code jvm}, {@code native}, {@code kernel}), and a function's system name carries
 * mixflame's own kind suffix, so Java frames' compilation tiers survive. The producer's description and notes are
 * profile attributes ({@code mixflame.producer}, {@code mixflame.note}).
 *
 * <p>Written here rather than with the generated classes: those need protobuf-java, which would add megabytes to the
 * agent loaded into production JVMs, for a message this writer lays out in a few hundred lines.
 */
public final class OtlpWriter implements ProfileWriter {
    static final String SCOPE_NAME = "mixflame";
    static final String THREAD_NAME = "thread.name";
    static final String THREAD_ID = "thread.id";
    static final String FRAME_TYPE = "profile.frame.type";
    static final String BUILD_ID = "process.executable.build_id.gnu";
    static final String SERVICE_NAME = "service.name";
    static final String PRODUCER = "mixflame.producer";
    static final String NOTE = "mixflame.note";

    private final OtlpResource resource;

    /** A writer of profiles of {@code resource}. */
    public OtlpWriter(OtlpResource resource) {
        this.resource = resource;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        write(List.of(profile), out);
    }

    /** Writes the profiles of one period's events as one message, uncompressed; {@code out} stays open. */
    public void write(List<Profile> profiles, OutputStream out) throws IOException {
        message(profiles).writeTo(out);
        out.flush();
    }

    /** The message holding {@code profiles}. */
    public byte[] encode(List<Profile> profiles) {
        return message(profiles).toByteArray();
    }

    private ProtoWriter message(List<Profile> profiles) {
        OtlpDictionary dictionary = new OtlpDictionary();
        ProtoWriter out = new ProtoWriter(64 * 1024);
        int resourceProfiles = out.begin(REQUEST_RESOURCE_PROFILES);
        int resourceMessage = out.begin(RESOURCE_PROFILES_RESOURCE);
        keyValue(out, SERVICE_NAME, resource.serviceName());
        for (Map.Entry<String, String> a : resource.attributes().entrySet()) {
            keyValue(out, a.getKey(), a.getValue());
        }
        out.end(resourceMessage);
        int scopeProfiles = out.begin(RESOURCE_PROFILES_SCOPE_PROFILES);
        int scope = out.begin(SCOPE_PROFILES_SCOPE);
        out.string(SCOPE_NAME_FIELD, SCOPE_NAME);
        out.end(scope);
        for (Profile profile : profiles) {
            writeProfile(profile, dictionary, out);
        }
        out.end(scopeProfiles);
        out.end(resourceProfiles);
        // Last, once the profiles have asked for every entry.
        dictionary.write(out, REQUEST_DICTIONARY);
        return out;
    }

    /** Writes one profile per value kind of {@code profile}. */
    private static void writeProfile(Profile profile, OtlpDictionary dictionary, ProtoWriter out) {
        ProfileInfo info = profile.info();
        dictionary.addModules(info.modules());
        SampleTypes types = SampleTypes.of(profile);
        // The samples' stacks and attributes are the same for both kinds: found once.
        List<Profile.Stack> stacks = profile.stacks();
        int[] stackIndex = new int[stacks.size()];
        int[][] attributes = new int[stacks.size()][];
        int[] links = new int[stacks.size()];
        for (int s = 0; s < stacks.size(); s++) {
            StackShape shape = StackShape.of(profile, stacks.get(s));
            int[] thread = threadAttributes(shape.thread(), dictionary);
            int[] attrs = Arrays.copyOf(thread, thread.length + shape.labels().length);
            int n = thread.length;
            String traceId = null;
            String spanId = null;
            for (Frame label : shape.labels()) {
                // A span's ids are the sample's link; its other labels (its local root's name) attributes.
                if (label.labelKey().equals(SpanLabels.TRACE_ID)) {
                    traceId = label.labelValue();
                } else if (label.labelKey().equals(SpanLabels.SPAN_ID)) {
                    spanId = label.labelValue();
                } else {
                    attrs[n++] = dictionary.attribute(label.labelKey(), NameEscaping.printable(label.labelValue()));
                }
            }
            links[s] = traceId == null || spanId == null ? 0 : dictionary.link(traceId, spanId);
            if (links[s] == 0 && spanId != null) {
                // [span_id=other]: past the bound, no link; said as the attribute it is.
                attrs[n++] = dictionary.attribute(SpanLabels.SPAN_ID, NameEscaping.printable(spanId));
            }
            stackIndex[s] = dictionary.stack(profile, shape.leafFirst());
            attributes[s] = Arrays.copyOf(attrs, n);
        }
        int[] shared = new int[1 + info.notes().size()];
        shared[0] = dictionary.attribute(PRODUCER, "mixflame " + info.describe());
        for (int i = 0; i < info.notes().size(); i++) {
            shared[1 + i] = dictionary.attribute(NOTE, info.notes().get(i));
        }
        writeKind(profile, types, types.count(), false, stackIndex, attributes, links, shared, dictionary, out);
        if (types.weighed()) {
            writeKind(profile, types, types.weight(), true, stackIndex, attributes, links, shared, dictionary, out);
        }
    }

    private static void writeKind(Profile profile, SampleTypes types, SampleTypes.ValueType type, boolean weights,
                                  int[] stackIndex, int[][] attributes, int[] links, int[] profileAttributes,
                                  OtlpDictionary dictionary, ProtoWriter out) {
        ProfileInfo info = profile.info();
        List<Profile.Stack> stacks = profile.stacks();
        int message = out.begin(SCOPE_PROFILES_PROFILES);
        valueType(out, PROFILE_SAMPLE_TYPE, dictionary, type);
        for (int s = 0; s < stacks.size(); s++) {
            Profile.Stack stack = stacks.get(s);
            long value = weights ? stack.weightNanos() : stack.samples();
            if (value == 0) {
                continue;
            }
            int sample = out.begin(PROFILE_SAMPLES);
            out.varint(SAMPLE_STACK_INDEX, stackIndex[s]);
            if (attributes[s].length > 0) {
                packed(out, SAMPLE_ATTRIBUTE_INDICES, attributes[s]);
            }
            if (links[s] != 0) {
                out.varint(SAMPLE_LINK_INDEX, links[s]);
            }
            int values = out.begin(SAMPLE_VALUES);
            out.packedVarint(value);
            out.end(values);
            out.end(sample);
        }
        if (info.startMillis() > 0) {
            out.fixed64(PROFILE_TIME_UNIX_NANO, info.startMillis() * 1_000_000L);
        }
        if (info.durationNanos() > 0) {
            out.varint(PROFILE_DURATION_NANO, info.durationNanos());
        }
        valueType(out, PROFILE_PERIOD_TYPE, dictionary, types.periodType());
        out.varint(PROFILE_PERIOD, types.period());
        packed(out, PROFILE_ATTRIBUTE_INDICES, profileAttributes);
        out.end(message);
    }

    /**
     * {@code thread.name} and {@code thread.id} of a thread's root frame; its whole name alone when it has no fields;
     * none without a thread frame.
     */
    private static int[] threadAttributes(Frame root, OtlpDictionary dictionary) {
        if (root == null) {
            return new int[0];
        }
        if (root.threadName() != null) {
            return new int[] {dictionary.attribute(THREAD_NAME, NameEscaping.printable(root.threadName())),
                    dictionary.intAttribute(THREAD_ID, root.threadId())};
        }
        String name = root.name();
        name = name.startsWith("[") && name.endsWith("]") ? name.substring(1, name.length() - 1) : name;
        return new int[] {dictionary.attribute(THREAD_NAME, NameEscaping.printable(name))};
    }

    private static void valueType(ProtoWriter out, int field, OtlpDictionary dictionary, SampleTypes.ValueType type) {
        int valueType = out.begin(field);
        out.varint(VALUE_TYPE_TYPE, dictionary.string(type.type()))
                .varint(VALUE_TYPE_UNIT, dictionary.string(type.unit()));
        out.end(valueType);
    }

    private static void packed(ProtoWriter out, int field, int[] indexes) {
        int run = out.begin(field);
        for (int index : indexes) {
            out.packedVarint(index);
        }
        out.end(run);
    }

    /** A resource attribute: resources carry their keys and values inline, not in the dictionary. */
    private static void keyValue(ProtoWriter out, String key, String value) {
        int keyValue = out.begin(RESOURCE_ATTRIBUTES);
        out.string(KEY_VALUE_KEY, key);
        int any = out.begin(KEY_VALUE_VALUE);
        out.string(ANY_VALUE_STRING, value);
        out.end(any);
        out.end(keyValue);
    }

    /** The kind of code a location ran, as OpenTelemetry's {@code profile.frame.type} names it; null for none. */
    static String frameKind(FrameType type) {
        if (type.isJava() || type == FrameType.STUB) {
            return "jvm";
        }
        return switch (type) {
            case NATIVE -> "native";
            case KERNEL -> "kernel";
            default -> null;
        };
    }
}
