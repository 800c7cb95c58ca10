package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import one.proto.Proto;

import static io.mixflame.report.PprofFieldNumbers.*;

/**
 * Writes a gzip-compressed pprof profile (github.com/google/pprof/proto/profile.proto), as {@code go tool pprof}
 * reads it.
 *
 * <p>Sample types: {@code samples/count} and, when stacks have weights, {@code <event>/nanoseconds} (then the
 * default, and the period type with the sampling interval as period); a profile read from counts only (collapsed
 * without mixflame's header, an HTML page, a JFR file without an interval) has the first alone, with period 1.
 * Allocation and lock profiles have the types Go's tools give them ({@link PprofSampleTypes}):
 * {@code alloc_objects/count} and {@code alloc_space/bytes}, {@code contentions/count} and
 * {@code delay/nanoseconds}.
 * Every distinct frame becomes one Location and every method or native function one Function; a Function's
 * {@code name} is the frame's name and its {@code system_name} carries the collapsed type suffix, so the kind of each
 * Java frame survives. A Java Function has its source file and first line when the profile knows them, and a
 * Location's Line the sampled line when the profile records lines (else 0). Native frames get their module's Mapping and an address in it
 * ({@link PprofMappings}): the mapping's file is the module's full path where the profile knows it, mapping 1 the
 * process's main executable; where a module's frames carry another name than its file's (a temporary copy of a
 * library), a comment {@code mixflame mapping N module NAME} says so, for {@link PprofReader}. A {@code [name tid=N]} root frame becomes the sample's {@code thread} label with that
 * value, as async-profiler's converter writes it, and is not a Location. The label frames after it
 * ({@link FrameType#LABEL}, {@code [endpoint=/checkout]}) are not Locations either: each becomes a string label of
 * the sample, {@code endpoint} = {@code /checkout}, after the {@code thread} label, which is what
 * {@code go tool pprof -tagfocus=endpoint=/checkout} and Pyroscope filter on. An empty value is written as the empty
 * string, which Go's reader drops. The engine's description and the profile's notes become comments.
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
        StringTable strings = new StringTable();
        Proto message = new Proto(64 * 1024);

        // A profile read from a file that has counts only has no weights: a nanoseconds type would be all zeros
        // (and as the default, viewers such as speedscope would show nothing).
        boolean weighed = profile.totalWeightNanos() > 0 || profile.totalSamples() == 0;
        PprofSampleTypes types = PprofSampleTypes.of(info.event());
        message.field(PROFILE_SAMPLE_TYPE, valueType(strings, types.countType(), "count"));
        if (weighed) {
            message.field(PROFILE_SAMPLE_TYPE, valueType(strings, types.weightType(), types.weightUnit()));
        }

        // Location ids are handed out as stacks first use a frame; 0 means "none yet" (pprof ids start at 1).
        int[] locationOfFrame = new int[profile.frames().size()];
        List<Frame> locations = new ArrayList<>();
        Proto sample = new Proto(256);
        Proto ids = new Proto(128);
        Proto values = new Proto(24);
        for (Profile.Stack stack : profile.stacks()) {
            ids.reset();
            int[] frameIds = stack.frameIds();
            Frame root = frameIds.length > 0 ? profile.frame(frameIds[0]) : null;
            boolean threaded = root != null && root.type() == FrameType.THREAD;
            int labelsEnd = threaded ? 1 : 0;
            while (labelsEnd < frameIds.length && profile.frame(frameIds[labelsEnd]).type() == FrameType.LABEL) {
                labelsEnd++;
            }
            for (int i = frameIds.length - 1; i >= labelsEnd; i--) { // pprof wants the leaf first
                int frameId = frameIds[i];
                if (locationOfFrame[frameId] == 0) {
                    locations.add(profile.frame(frameId));
                    locationOfFrame[frameId] = locations.size();
                }
                ids.writeLong(locationOfFrame[frameId]);
            }
            values.reset();
            values.writeLong(stack.samples());
            if (weighed) {
                values.writeLong(stack.weightNanos());
            }
            sample.reset();
            sample.field(SAMPLE_LOCATION_ID, ids);
            sample.field(SAMPLE_VALUE, values);
            if (threaded) {
                sample.field(SAMPLE_LABEL, stringLabel(strings, THREAD_LABEL, root.name()));
            }
            for (int i = threaded ? 1 : 0; i < labelsEnd; i++) {
                Frame label = profile.frame(frameIds[i]);
                // Label values are made printable when their frames are made; frames read from elsewhere may not be.
                sample.field(SAMPLE_LABEL, stringLabel(strings, label.labelKey(),
                        NameEscaping.printable(label.labelValue())));
            }
            message.field(PROFILE_SAMPLE, sample);
        }

        PprofMappings mappings = new PprofMappings(locations, info.modules());
        List<String> moduleComments = new ArrayList<>();
        for (PprofMappings.Mapping m : mappings.all()) {
            // The functions are named, so pprof need not symbolize; the build id lets other tools find the file.
            Proto mapping = new Proto(32)
                    .field(MAPPING_ID, (long) m.id())
                    .field(MAPPING_MEMORY_START, m.start())
                    .field(MAPPING_MEMORY_LIMIT, m.limit())
                    .field(MAPPING_FILENAME, (long) strings.index(NameEscaping.printable(m.file())));
            if (!m.buildId().isEmpty()) {
                mapping.field(MAPPING_BUILD_ID, (long) strings.index(NameEscaping.printable(m.buildId())));
            }
            message.field(PROFILE_MAPPING, mapping.field(MAPPING_HAS_FUNCTIONS, 1L));
            if (m.renamed()) {
                moduleComments.add(MODULE_COMMENT + m.id() + MODULE_COMMENT_MIDDLE + NameEscaping.printable(m.module()));
            }
        }
        // A Function per method (or native function), a Location per frame: frames of one method at different
        // sampled lines share their Function.
        Map<Frame, Integer> functionIds = new HashMap<>();
        List<Frame> functions = new ArrayList<>();
        for (int id = 1; id <= locations.size(); id++) {
            Frame frame = locations.get(id - 1);
            Proto location = new Proto(24).field(LOCATION_ID, (long) id);
            PprofMappings.Mapping m = mappings.of(frame);
            if (m != null) {
                location.field(LOCATION_MAPPING_ID, (long) m.id()).field(LOCATION_ADDRESS, mappings.address(frame));
            }
            int functionId = functionIds.computeIfAbsent(frame.atLine(0), f -> {
                functions.add(f);
                return functions.size();
            });
            Proto line = new Proto(8).field(LINE_FUNCTION_ID, (long) functionId);
            if (frame.line() > 0) {
                line.field(LINE_LINE, (long) frame.line());
            }
            message.field(PROFILE_LOCATION, location.field(LOCATION_LINE, line));
        }
        for (int id = 1; id <= functions.size(); id++) {
            Frame frame = functions.get(id - 1);
            Proto function = new Proto(24)
                    .field(FUNCTION_ID, (long) id)
                    .field(FUNCTION_NAME, (long) strings.index(frame.name()))
                    .field(FUNCTION_SYSTEM_NAME,
                            (long) strings.index(frame.name() + CollapsedFrames.suffix(frame.type())));
            if (frame.type().isJava() && frame.module() != null) {
                function.field(FUNCTION_FILENAME, (long) strings.index(frame.module()));
                if (frame.offset() > 0) {
                    function.field(FUNCTION_START_LINE, frame.offset());
                }
            }
            message.field(PROFILE_FUNCTION, function);
        }

        if (info.startMillis() > 0) {
            message.field(PROFILE_TIME_NANOS, info.startMillis() * 1_000_000L);
        }
        if (info.durationNanos() > 0) {
            message.field(PROFILE_DURATION_NANOS, info.durationNanos());
        }
        if (weighed) {
            message.field(PROFILE_PERIOD_TYPE, valueType(strings, types.weightType(), types.weightUnit()));
            message.field(PROFILE_PERIOD, info.intervalNanos());
        } else {
            message.field(PROFILE_PERIOD_TYPE, valueType(strings, "samples", "count"));
            message.field(PROFILE_PERIOD, 1L);
        }
        message.field(PROFILE_COMMENT, (long) strings.index("mixflame " + info.describe()));
        for (String note : info.notes()) {
            message.field(PROFILE_COMMENT, (long) strings.index(note));
        }
        for (String comment : moduleComments) {
            message.field(PROFILE_COMMENT, (long) strings.index(comment));
        }
        message.field(PROFILE_DEFAULT_SAMPLE_TYPE, (long) strings.index(weighed ? types.weightType() : types.countType()));

        // Last, once every string above has its index.
        for (String s : strings.all()) {
            message.field(PROFILE_STRING_TABLE, s);
        }

        try (GZIPOutputStream gz = new GZIPOutputStream(new NonClosingOutputStream(out), 64 * 1024)) {
            gz.write(message.buffer(), 0, message.size());
        }
    }

    private static Proto stringLabel(StringTable strings, String key, String value) {
        return new Proto(8)
                .field(LABEL_KEY, (long) strings.index(key))
                .field(LABEL_STR, (long) strings.index(value));
    }

    private static Proto valueType(StringTable strings, String type, String unit) {
        return new Proto(8)
                .field(VALUE_TYPE_TYPE, (long) strings.index(type))
                .field(VALUE_TYPE_UNIT, (long) strings.index(unit));
    }

    /** pprof's string table: each string once, "" at index 0 as the format requires. */
    private static final class StringTable {
        private final Map<String, Integer> indexes = new HashMap<>();
        private final List<String> strings = new ArrayList<>();

        StringTable() {
            index("");
        }

        int index(String s) {
            return indexes.computeIfAbsent(s, k -> {
                strings.add(k);
                return strings.size() - 1;
            });
        }

        List<String> all() {
            return strings;
        }
    }
}
