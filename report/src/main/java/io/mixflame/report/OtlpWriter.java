package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import one.proto.Proto;

import static io.mixflame.report.OtlpFieldNumbers.*;

/**
 * Writes profiles as OpenTelemetry's {@code ExportProfilesServiceRequest} of the profiles signal
 * ({@code opentelemetry.proto.profiles.v1development}, as opentelemetry-proto 1.11 lays it out), uncompressed: the
 * body an OTLP/HTTP receiver takes at {@code /v1development/profiles}, and the layout of {@code ProfilesData} too.
 *
 * <p>One resource (service name and attributes, {@link OtlpResource}) with one scope ({@code mixflame}) holds the
 * profiles, and one dictionary, shared by them all, holds every string, attribute, stack, location, function and
 * mapping; entry 0 of every table is the empty one, as the format asks. Each event gives one profile per value
 * kind, as Go's tools name them ({@link PprofSampleTypes}): {@code samples/count} and {@code cpu/nanoseconds} for
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
        byte[] message = encode(profiles);
        out.write(message);
        out.flush();
    }

    /** The message holding {@code profiles}. */
    public byte[] encode(List<Profile> profiles) {
        OtlpDictionary dictionary = new OtlpDictionary();
        List<Proto> encoded = new ArrayList<>(profiles.size() * 2);
        for (Profile profile : profiles) {
            encodeProfile(profile, dictionary, encoded);
        }
        Proto scope = new Proto(64 + encoded.size() * 1024);
        scope.field(SCOPE_PROFILES_SCOPE, new Proto(32).field(SCOPE_NAME_FIELD, SCOPE_NAME));
        for (Proto p : encoded) {
            scope.field(SCOPE_PROFILES_PROFILES, p);
        }
        Proto resourceAttributes = new Proto(256);
        resourceAttributes.field(RESOURCE_ATTRIBUTES, keyValue(SERVICE_NAME, resource.serviceName()));
        for (Map.Entry<String, String> a : resource.attributes().entrySet()) {
            resourceAttributes.field(RESOURCE_ATTRIBUTES, keyValue(a.getKey(), a.getValue()));
        }
        Proto resourceProfiles = new Proto(scope.size() + resourceAttributes.size() + 16)
                .field(RESOURCE_PROFILES_RESOURCE, resourceAttributes)
                .field(RESOURCE_PROFILES_SCOPE_PROFILES, scope);
        Proto dictionaryMessage = dictionary.encode();
        Proto request = new Proto(resourceProfiles.size() + dictionaryMessage.size() + 16)
                .field(REQUEST_RESOURCE_PROFILES, resourceProfiles)
                .field(REQUEST_DICTIONARY, dictionaryMessage);
        return Arrays.copyOf(request.buffer(), request.size());
    }

    /** Adds one profile per value kind of {@code profile} to {@code encoded}. */
    private static void encodeProfile(Profile profile, OtlpDictionary dictionary, List<Proto> encoded) {
        ProfileInfo info = profile.info();
        dictionary.addModules(info.modules());
        boolean weighed = profile.totalWeightNanos() > 0 || profile.totalSamples() == 0;
        PprofSampleTypes types = PprofSampleTypes.of(info.event());
        // The samples' stacks and attributes are the same for both kinds: found once.
        List<Profile.Stack> stacks = profile.stacks();
        int[] stackIndex = new int[stacks.size()];
        int[][] attributes = new int[stacks.size()][];
        for (int s = 0; s < stacks.size(); s++) {
            int[] frameIds = stacks.get(s).frameIds();
            int first = 0;
            List<Integer> attrs = new ArrayList<>(4);
            if (frameIds.length > 0 && profile.frame(frameIds[0]).type() == FrameType.THREAD) {
                threadAttributes(profile.frame(frameIds[0]), dictionary, attrs);
                first = 1;
            }
            while (first < frameIds.length && profile.frame(frameIds[first]).type() == FrameType.LABEL) {
                Frame label = profile.frame(frameIds[first++]);
                attrs.add(dictionary.attribute(label.labelKey(), NameEscaping.printable(label.labelValue())));
            }
            int[] locations = new int[frameIds.length - first];
            for (int i = frameIds.length - 1, j = 0; i >= first; i--, j++) { // the leaf first, as in pprof
                locations[j] = dictionary.location(profile.frame(frameIds[i]));
            }
            stackIndex[s] = dictionary.stack(locations);
            attributes[s] = toArray(attrs);
        }
        List<Integer> profileAttributes = new ArrayList<>();
        profileAttributes.add(dictionary.attribute(PRODUCER, "mixflame " + info.describe()));
        for (String note : info.notes()) {
            profileAttributes.add(dictionary.attribute(NOTE, note));
        }
        int[] shared = toArray(profileAttributes);
        encoded.add(encodeKind(profile, info, dictionary, types.countType(), "count", false, stackIndex, attributes,
                shared, weighed ? types.weightType() : null, weighed ? types.weightUnit() : null));
        if (weighed) {
            encoded.add(encodeKind(profile, info, dictionary, types.weightType(), types.weightUnit(), true,
                    stackIndex, attributes, shared, types.weightType(), types.weightUnit()));
        }
    }

    private static Proto encodeKind(Profile profile, ProfileInfo info, OtlpDictionary dictionary, String type,
                                    String unit, boolean weights, int[] stackIndex, int[][] attributes,
                                    int[] profileAttributes, String periodType, String periodUnit) {
        List<Profile.Stack> stacks = profile.stacks();
        Proto message = new Proto(64 + stacks.size() * 16);
        message.field(PROFILE_SAMPLE_TYPE, valueType(dictionary, type, unit));
        Proto sample = new Proto(64);
        Proto packed = new Proto(32);
        for (int s = 0; s < stacks.size(); s++) {
            Profile.Stack stack = stacks.get(s);
            long value = weights ? stack.weightNanos() : stack.samples();
            if (value == 0) {
                continue;
            }
            sample.reset();
            sample.field(SAMPLE_STACK_INDEX, stackIndex[s]);
            if (attributes[s].length > 0) {
                packed.reset();
                for (int a : attributes[s]) {
                    packed.writeInt(a);
                }
                sample.field(SAMPLE_ATTRIBUTE_INDICES, packed);
            }
            packed.reset();
            packed.writeLong(value);
            sample.field(SAMPLE_VALUES, packed);
            message.field(PROFILE_SAMPLES, sample);
        }
        if (info.startMillis() > 0) {
            message.fieldFixed64(PROFILE_TIME_UNIX_NANO, info.startMillis() * 1_000_000L);
        }
        if (info.durationNanos() > 0) {
            message.field(PROFILE_DURATION_NANO, info.durationNanos());
        }
        if (periodType != null) {
            message.field(PROFILE_PERIOD_TYPE, valueType(dictionary, periodType, periodUnit));
            message.field(PROFILE_PERIOD, info.intervalNanos());
        } else {
            message.field(PROFILE_PERIOD_TYPE, valueType(dictionary, "samples", "count"));
            message.field(PROFILE_PERIOD, 1L);
        }
        packed.reset();
        for (int a : profileAttributes) {
            packed.writeInt(a);
        }
        message.field(PROFILE_ATTRIBUTE_INDICES, packed);
        return message;
    }

    /** {@code thread.name} and {@code thread.id} of a thread's root frame; its whole name when it has no fields. */
    private static void threadAttributes(Frame root, OtlpDictionary dictionary, List<Integer> attrs) {
        if (root.threadName() != null) {
            attrs.add(dictionary.attribute(THREAD_NAME, NameEscaping.printable(root.threadName())));
            attrs.add(dictionary.intAttribute(THREAD_ID, root.threadId()));
        } else {
            String name = root.name();
            name = name.startsWith("[") && name.endsWith("]") ? name.substring(1, name.length() - 1) : name;
            attrs.add(dictionary.attribute(THREAD_NAME, NameEscaping.printable(name)));
        }
    }

    private static Proto valueType(OtlpDictionary dictionary, String type, String unit) {
        return new Proto(8)
                .field(VALUE_TYPE_TYPE, dictionary.string(type))
                .field(VALUE_TYPE_UNIT, dictionary.string(unit));
    }

    /** A resource attribute: resources carry their keys and values inline, not in the dictionary. */
    private static Proto keyValue(String key, String value) {
        return new Proto(32 + value.length())
                .field(KEY_VALUE_KEY, key)
                .field(KEY_VALUE_VALUE, new Proto(8 + value.length()).field(ANY_VALUE_STRING, value));
    }

    private static int[] toArray(List<Integer> list) {
        int[] a = new int[list.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = list.get(i);
        }
        return a;
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
