package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static io.mixflame.report.PprofFieldNumbers.*;

/**
 * Writes a gzip-compressed pprof profile (github.com/google/pprof/proto/profile.proto), as {@code go tool pprof}
 * reads it.
 *
 * <p>Sample types: {@code samples/count} and, when stacks have weights, {@code <event>/nanoseconds} (then the
 * default, and the period type with the sampling interval as period); a profile read from counts only (collapsed
 * without mixflame's header, an HTML page, a JFR file without an interval) has the first alone, with period 1.
 * Allocation and lock profiles have the types Go's tools give them ({@link SampleTypes}):
 * {@code alloc_objects/count} and {@code alloc_space/bytes}, {@code contentions/count} and
 * {@code delay/nanoseconds}.
 * Every distinct frame becomes one Location and every method or native function one Function ({@link ProfileFunction}:
 * a name, system name and file, as OpenTelemetry's writer shares them too); a Function's {@code name} is the frame's
 * name and its {@code system_name} carries the collapsed type suffix, so the kind of each Java frame survives. A Java
 * Function has its source file and first line when the profile knows them, and a Location's Line the sampled line when
 * the profile records lines (else 0). Native frames get their module's Mapping and an address in it
 * ({@link PprofMappings}): the mapping's file is the module's full path where the profile knows it, mapping 1 the
 * process's main executable; where a module's frames carry another name than its file's (a temporary copy of a
 * library), a comment {@code mixflame mapping N module NAME} says so, for {@link PprofReader}. A {@code [name tid=N]}
 * root frame becomes the sample's {@code thread} label with that value, as async-profiler's converter writes it, and
 * is not a Location. The label frames after it ({@link FrameType#LABEL}, {@code [endpoint=/checkout]}) are not
 * Locations either: each becomes a string label of the sample, {@code endpoint} = {@code /checkout}, after the
 * {@code thread} label, which is what {@code go tool pprof -tagfocus=endpoint=/checkout} and Pyroscope filter on. An
 * empty value is written as the empty string, which Go's reader drops. The engine's description and the profile's
 * notes become comments.
 */
public final class PprofWriter implements ProfileWriter {

    /** The label that names a sample's thread. */
    static final String THREAD_LABEL = "thread";
    /**
     * Begins the comment {@code mixflame mapping N module NAME}: mapping N's frames carry NAME as their module, not
     * the name of its file (a temporary copy of a library). pprof has no field for it.
     */
    static final String MODULE_COMMENT = "mixflame mapping ";
    static final String MODULE_COMMENT_MIDDLE = " module ";


    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        ProfileInfo info = profile.info();
        ProfileDictionary dictionary = new ProfileDictionary();
        ProtoWriter message = new ProtoWriter(64 * 1024);

        SampleTypes types = SampleTypes.of(profile);
        valueType(message, PROFILE_SAMPLE_TYPE, dictionary, types.count());
        if (types.weighed()) {
            valueType(message, PROFILE_SAMPLE_TYPE, dictionary, types.weight());
        }

        // Locations are numbered as stacks first reach their frames; a location's id is its index.
        for (Profile.Stack stack : profile.stacks()) {
            StackShape shape = StackShape.of(profile, stack);
            int sample = message.begin(PROFILE_SAMPLE);
            int ids = message.begin(SAMPLE_LOCATION_ID);
            for (int frameId : shape.leafFirst()) {
                message.packedVarint(dictionary.location(profile, frameId));
            }
            message.end(ids);
            int values = message.begin(SAMPLE_VALUE);
            message.packedVarint(stack.samples());
            if (types.weighed()) {
                message.packedVarint(stack.weightNanos());
            }
            message.end(values);
            if (shape.thread() != null) {
                stringLabel(message, dictionary, THREAD_LABEL, shape.thread().name());
            }
            for (Frame label : shape.labels()) {
                // Label values are made printable when their frames are made; frames read from elsewhere may not be.
                stringLabel(message, dictionary, label.labelKey(), NameEscaping.printable(label.labelValue()));
            }
            message.end(sample);
        }

        List<Frame> locations = dictionary.locationFrames();
        PprofMappings mappings = new PprofMappings(locations, info.modules());
        List<String> moduleComments = new ArrayList<>();
        for (PprofMappings.Mapping m : mappings.all()) {
            // The functions are named, so pprof need not symbolize; the build id lets other tools find the file.
            int mapping = message.begin(PROFILE_MAPPING);
            message.varint(MAPPING_ID, m.id())
                    .varint(MAPPING_MEMORY_START, m.start())
                    .varint(MAPPING_MEMORY_LIMIT, m.limit())
                    .varint(MAPPING_FILENAME, dictionary.string(NameEscaping.printable(m.file())));
            if (!m.buildId().isEmpty()) {
                message.varint(MAPPING_BUILD_ID, dictionary.string(NameEscaping.printable(m.buildId())));
            }
            message.varint(MAPPING_HAS_FUNCTIONS, 1);
            message.end(mapping);
            if (m.renamed()) {
                moduleComments.add(MODULE_COMMENT + m.id() + MODULE_COMMENT_MIDDLE + NameEscaping.printable(m.module()));
            }
        }
        // A Function per method (or native function), a Location per frame: frames of one method at different
        // sampled lines share their Function.
        for (int id = 1; id <= locations.size(); id++) {
            Frame frame = locations.get(id - 1);
            int location = message.begin(PROFILE_LOCATION);
            message.varint(LOCATION_ID, id);
            PprofMappings.Mapping m = mappings.of(frame);
            if (m != null) {
                message.varint(LOCATION_MAPPING_ID, m.id()).varint(LOCATION_ADDRESS, mappings.address(frame));
            }
            int line = message.begin(LOCATION_LINE);
            message.varint(LINE_FUNCTION_ID, dictionary.function(frame));
            if (frame.line() > 0) {
                message.varint(LINE_LINE, frame.line());
            }
            message.end(line);
            message.end(location);
        }
        List<ProfileFunction> functions = dictionary.functions();
        for (int id = 1; id <= functions.size(); id++) {
            ProfileFunction f = functions.get(id - 1);
            int function = message.begin(PROFILE_FUNCTION);
            message.varint(FUNCTION_ID, id)
                    .varint(FUNCTION_NAME, dictionary.string(f.name()))
                    .varint(FUNCTION_SYSTEM_NAME, dictionary.string(f.systemName()));
            if (f.file() != null) {
                message.varint(FUNCTION_FILENAME, dictionary.string(f.file()));
                if (f.startLine() > 0) {
                    message.varint(FUNCTION_START_LINE, f.startLine());
                }
            }
            message.end(function);
        }

        if (info.startMillis() > 0) {
            message.varint(PROFILE_TIME_NANOS, info.startMillis() * 1_000_000L);
        }
        if (info.durationNanos() > 0) {
            message.varint(PROFILE_DURATION_NANOS, info.durationNanos());
        }
        valueType(message, PROFILE_PERIOD_TYPE, dictionary, types.periodType());
        message.varint(PROFILE_PERIOD, types.period());
        message.varint(PROFILE_COMMENT, dictionary.string("mixflame " + info.describe()));
        for (String note : info.notes()) {
            message.varint(PROFILE_COMMENT, dictionary.string(note));
        }
        for (String comment : moduleComments) {
            message.varint(PROFILE_COMMENT, dictionary.string(comment));
        }
        message.varint(PROFILE_DEFAULT_SAMPLE_TYPE, dictionary.string(types.defaultType().type()));

        // Last, once every string above has its index.
        for (String s : dictionary.strings()) {
            message.string(PROFILE_STRING_TABLE, s);
        }

        try (GZIPOutputStream gz = new GZIPOutputStream(new NonClosingOutputStream(out), 64 * 1024)) {
            message.writeTo(gz);
        }
    }

    private static void stringLabel(ProtoWriter message, ProfileDictionary dictionary, String key, String value) {
        int label = message.begin(SAMPLE_LABEL);
        message.varint(LABEL_KEY, dictionary.string(key)).varint(LABEL_STR, dictionary.string(value));
        message.end(label);
    }

    private static void valueType(ProtoWriter message, int field, ProfileDictionary dictionary,
                                  SampleTypes.ValueType type) {
        int valueType = message.begin(field);
        message.varint(VALUE_TYPE_TYPE, dictionary.string(type.type()))
                .varint(VALUE_TYPE_UNIT, dictionary.string(type.unit()));
        message.end(valueType);
    }
}
