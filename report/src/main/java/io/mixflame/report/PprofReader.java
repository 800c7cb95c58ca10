package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

import static io.mixflame.report.PprofFieldNumbers.*;

/**
 * Reads a gzip-compressed pprof profile — one {@link PprofWriter} wrote, or another producer's (async-profiler's
 * converter, Go) — into a profile, so that pprof converts back to collapsed stacks, HTML and JFR.
 *
 * <p>Each sample's locations, leaf first, become a stack root first; a location's lines (inlined functions, the
 * caller last) become one frame each. A frame's kind comes from the collapsed suffix {@link PprofWriter} puts in
 * the function's system name, else is guessed from its name as for collapsed stacks; a native frame gets its
 * mapping's file name and its address's offset from the mapping's start, a Java frame its function's file name and
 * first line. A mapping's file may be a full path: its frames' module is the file's name without directories, or the
 * name mixflame's {@code mixflame mapping N module NAME} comment gives it; the mappings, in order, become the profile's
 * {@linkplain ProfileInfo#modules modules}. A {@code thread} label becomes the root frame ({@code [name tid=N]} as written, else {@code [name]}).
 * Every other string label becomes a label frame ({@link Frame#label}) after it, sorted by key, as the labels of
 * {@link PprofWriter} were; a label whose key is no label key ({@link Frame#isLabelKey}) is left out and counted in a
 * warning, and numeric labels ({@code num}) are left out (they are measures, not labels a sample was taken under).
 * Of several {@code thread} labels the first is the thread, the others labels.
 * The counts are the {@code samples/count} values and the weights those of the first type in nanoseconds; without a
 * count type a sample counts once. mixflame's own comment gives back the engine, event and interval, the other
 * comments are notes; for another producer the event is the weight's type and the interval the period.
 */
final class PprofReader {
    private static final String MIXFLAME_COMMENT = "mixflame ";
    /** A profile larger than this uncompressed is refused rather than read into memory. */
    private static final int MAX_BYTES = 512 << 20;
    /** Keys named in the warning about labels left out, at most. */
    private static final int MAX_BAD_KEYS_NAMED = 5;

    private final ReadBounds bounds;
    private final List<String> strings = new ArrayList<>();
    private final List<long[]> sampleTypes = new ArrayList<>();
    /** By id: start, file and build id (string indexes), in the order the profile lists them. */
    private final Map<Long, long[]> mappings = new LinkedHashMap<>();
    /** By mapping id: the module name its frames carry where it is not its file's name. */
    private final Map<Long, String> moduleNames = new HashMap<>();
    /** The comments (string indexes) that named modules: not notes. */
    private final Set<Long> moduleComments = new HashSet<>();
    private final Map<Long, Location> locations = new HashMap<>();
    private final Map<Long, long[]> functions = new HashMap<>();
    private final List<Long> comments = new ArrayList<>();
    private final long[] periodType = {-1, -1};
    /** Label frames by key and value string indexes ({@link #labelFrame}); null for a key that is no label key. */
    private final Map<Long, Frame> labelFrames = new HashMap<>();
    private final List<String> badLabelKeys = new ArrayList<>();
    private long badLabels;
    private long period;
    private long timeNanos;
    private long durationNanos;

    /** A location: its mapping, its address and its functions, the inlined first. */
    /** A location: its mapping, its address, and its Lines as function ids and line numbers, inlined first. */
    private record Location(long mappingId, long address, long[] functionIds, long[] lines) {
    }

    PprofReader(ReadBounds bounds) {
        this.bounds = bounds;
    }

    /**
     * Reads the whole profile.
     *
     * @param warnings told about what is skipped (samples without a known location)
     * @throws IOException with one line saying why when the data is not gzip'd pprof or goes past a bound
     */
    Profile read(InputStream gzipped, Consumer<String> warnings) throws IOException {
        byte[] bytes;
        try (InputStream in = new GZIPInputStream(gzipped, 64 * 1024)) {
            bytes = in.readNBytes(MAX_BYTES);
            if (in.read() >= 0) {
                throw ReadBounds.exceeded("pprof", MAX_BYTES, "bytes uncompressed");
            }
        } catch (ZipException | EOFException e) {
            throw new IOException("not a complete gzip stream: " + e.getMessage(), e);
        }
        List<ProtoFields> samples = new ArrayList<>();
        ProtoFields profile = new ProtoFields(bytes, 0, bytes.length);
        while (profile.next()) {
            switch (profile.field()) {
                case PROFILE_SAMPLE_TYPE -> sampleTypes.add(valueType(profile.message()));
                case PROFILE_SAMPLE -> {
                    if (samples.size() >= bounds.maxStacks() * 4) {
                        throw ReadBounds.exceeded("pprof", bounds.maxStacks() * 4L, "samples");
                    }
                    samples.add(profile.message());
                }
                case PROFILE_MAPPING -> mapping(profile.message());
                case PROFILE_LOCATION -> location(profile.message());
                case PROFILE_FUNCTION -> function(profile.message());
                case PROFILE_STRING_TABLE -> {
                    if (strings.size() >= bounds.maxFrames() * 4) {
                        throw ReadBounds.exceeded("pprof", bounds.maxFrames() * 4L, "strings");
                    }
                    strings.add(profile.string());
                }
                case PROFILE_TIME_NANOS -> timeNanos = profile.varint();
                case PROFILE_DURATION_NANOS -> durationNanos = profile.varint();
                case PROFILE_PERIOD_TYPE -> {
                    long[] t = valueType(profile.message());
                    periodType[0] = t[0];
                    periodType[1] = t[1];
                }
                case PROFILE_PERIOD -> period = profile.varint();
                case PROFILE_COMMENT -> comments.add(profile.varint());
                default -> profile.skip();
            }
        }
        if (strings.isEmpty() || !strings.get(0).isEmpty()) {
            throw new IOException("not a pprof profile: its string table does not start with the empty string");
        }
        readModuleNames();
        return stacks(samples, warnings);
    }

    /** The names mixflame's {@code mixflame mapping N module NAME} comments give mappings' frames. */
    private void readModuleNames() {
        for (long c : comments) {
            String text = string(c);
            if (!text.startsWith(PprofWriter.MODULE_COMMENT)) {
                continue;
            }
            int middle = text.indexOf(PprofWriter.MODULE_COMMENT_MIDDLE, PprofWriter.MODULE_COMMENT.length());
            String name = middle < 0 ? "" : text.substring(middle + PprofWriter.MODULE_COMMENT_MIDDLE.length());
            try {
                long id = Long.parseLong(text.substring(PprofWriter.MODULE_COMMENT.length(), Math.max(0, middle)));
                if (!name.isEmpty()) {
                    moduleNames.put(id, CollapsedFrames.sanitize(name));
                    moduleComments.add(c);
                }
            } catch (NumberFormatException e) {
                // not one of ours after all: it stays a note
            }
        }
    }

    /** The name a mapping's frames carry: what a comment of ours says, else its file's name without directories. */
    private String moduleName(long mappingId, String file) {
        String named = moduleNames.get(mappingId);
        return named != null ? named : CollapsedFrames.sanitize(PprofMappings.fileName(file));
    }

    private Profile stacks(List<ProtoFields> samples, Consumer<String> warnings) throws IOException {
        int counts = -1;
        int weights = -1;
        for (int i = 0; i < sampleTypes.size(); i++) {
            String type = string(sampleTypes.get(i)[0]);
            String unit = string(sampleTypes.get(i)[1]);
            if (counts < 0 && (type.equals("samples") || unit.equals("count"))) {
                counts = i;
            } else if (weights < 0 && unit.equals("nanoseconds")) {
                weights = i;
            }
        }
        ProfileAccumulator acc = new ProfileAccumulator(Integer.MAX_VALUE, Integer.MAX_VALUE, m -> { });
        Map<Long, Frame[]> framesOfLocation = new HashMap<>();
        List<Frame> stack = new ArrayList<>();
        Frame[] rootFirst = new Frame[64];
        List<Long> locationIds = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        List<Frame> labels = new ArrayList<>();
        long skipped = 0;
        for (ProtoFields sample : samples) {
            locationIds.clear();
            values.clear();
            labels.clear();
            String thread = null;
            while (sample.next()) {
                switch (sample.field()) {
                    case SAMPLE_LOCATION_ID -> sample.numbers(locationIds::add);
                    case SAMPLE_VALUE -> sample.numbers(values::add);
                    case SAMPLE_LABEL -> {
                        long[] label = label(sample.message());
                        if (label[2] != 0) {
                            continue;
                        }
                        if (thread == null && string(label[0]).equals(PprofWriter.THREAD_LABEL)) {
                            thread = label[1] > 0 ? string(label[1]) : null;
                        } else {
                            Frame frame = labelFrame(label[0], label[1]);
                            if (frame != null) {
                                labels.add(frame);
                            }
                        }
                    }
                    default -> sample.skip();
                }
            }
            stack.clear();
            if (thread != null) {
                stack.add(threadFrame(thread));
            }
            labels.sort(LabelFrames.BY_KEY);
            stack.addAll(labels);
            boolean known = true;
            for (int i = locationIds.size() - 1; i >= 0 && known; i--) {
                Frame[] frames = framesOfLocation.get(locationIds.get(i));
                if (frames == null) {
                    frames = frames(locationIds.get(i));
                    if (frames == null) {
                        known = false;
                        break;
                    }
                    framesOfLocation.put(locationIds.get(i), frames);
                }
                for (int k = frames.length - 1; k >= 0; k--) {
                    stack.add(frames[k]);
                }
            }
            if (!known || stack.isEmpty()) {
                skipped++;
                continue;
            }
            if (stack.size() > bounds.maxStackDepth()) {
                throw ReadBounds.exceeded("pprof", bounds.maxStackDepth(), "frames in a stack");
            }
            long n = counts >= 0 && counts < values.size() ? values.get(counts) : 1;
            long weight = weights >= 0 && weights < values.size() ? values.get(weights) : 0;
            if (n < 0 || weight < 0) {
                throw new IOException("malformed pprof: a negative sample value");
            }
            if (n == 0 && weight == 0) {
                continue;
            }
            rootFirst = stack.toArray(rootFirst.length >= stack.size() ? rootFirst : new Frame[stack.size()]);
            acc.add(rootFirst, stack.size(), n, weight);
            if (acc.distinctStacks() > bounds.maxStacks()) {
                throw ReadBounds.exceeded("pprof", bounds.maxStacks(), "distinct stacks");
            }
            if (acc.distinctFrames() > bounds.maxFrames()) {
                throw ReadBounds.exceeded("pprof", bounds.maxFrames(), "distinct frames");
            }
        }
        if (skipped > 0) {
            warnings.accept(skipped + " samples skipped: they name locations or functions the profile does not have");
        }
        if (!badLabelKeys.isEmpty()) {
            warnings.accept(badLabels + " sample labels left out: their keys are not label keys (a letter or '_', "
                    + "then up to 63 letters, digits, '_', '.' or '-'): " + String.join(", ", badLabelKeys));
        }
        return acc.snapshot(info(weights));
    }

    private ProfileInfo info(int weights) {
        String engine = "pprof";
        String event = weights >= 0 ? string(sampleTypes.get(weights)[0]) : "unknown";
        long interval = periodType[1] >= 0 && string(periodType[1]).equals("nanoseconds") ? period : 0;
        List<String> notes = new ArrayList<>();
        for (long c : comments) {
            String text = string(c);
            if (moduleComments.contains(c)) {
                continue;
            }
            if (text.startsWith(MIXFLAME_COMMENT) && engine.equals("pprof")) {
                ProfileInfo described = CollapsedReader.parseHeader(text.substring(MIXFLAME_COMMENT.length()), 0,
                        w -> { });
                engine = described.engine();
                event = described.event();
                interval = described.intervalNanos() > 0 ? described.intervalNanos() : interval;
            } else if (!text.isEmpty()) {
                notes.add(CollapsedFrames.sanitize(text));
            }
        }
        return new ProfileInfo(engine, event, Math.max(0, interval), Math.max(0, timeNanos / 1_000_000),
                Math.max(0, durationNanos), notes, modules());
    }

    /** The mappings as modules, in the profile's order (the first being the main binary, as pprof takes it). */
    private List<NativeModule> modules() {
        List<NativeModule> modules = new ArrayList<>();
        for (Map.Entry<Long, long[]> m : mappings.entrySet()) {
            String file = string(m.getValue()[1]);
            String name = moduleName(m.getKey(), file);
            if (!name.isEmpty()) {
                modules.add(new NativeModule(name, NameEscaping.printable(file),
                        NameEscaping.printable(string(m.getValue()[2]))));
            }
        }
        return modules;
    }

    /** The frames of a location, the inlined first; null when it or one of its functions is missing. */
    private Frame[] frames(long locationId) {
        Location location = locations.get(locationId);
        if (location == null || location.functionIds().length == 0) {
            return null;
        }
        long[] mapping = mappings.get(location.mappingId());
        Frame[] frames = new Frame[location.functionIds().length];
        for (int i = 0; i < frames.length; i++) {
            long[] function = functions.get(location.functionIds()[i]);
            if (function == null) {
                return null;
            }
            Frame f = frame(function, location.mappingId(), mapping, location.address());
            long line = location.lines()[i];
            frames[i] = f.type().isJava() && line > 0 && line <= Integer.MAX_VALUE ? f.atLine((int) line) : f;
        }
        return frames;
    }

    private Frame frame(long[] function, long mappingId, long[] mapping, long address) {
        String name = CollapsedFrames.sanitize(string(function[0]));
        String system = string(function[1]);
        Frame typed = CollapsedFrames.parse(system.isEmpty() ? name : CollapsedFrames.sanitize(system));
        FrameType type = typed.type();
        if (name.isEmpty()) {
            name = typed.name().isEmpty() ? "[unknown]" : typed.name();
        }
        if (type.isJava()) {
            String file = string(function[2]);
            return file.isEmpty() ? new Frame(name, type) : new Frame(name, type, file, Math.max(0, function[3]));
        }
        // A name in brackets reads as a marker, but code without a symbol is named so too ([libfoo.so+0x4a00]):
        // a frame in a mapping is native code, as markers have none.
        if ((type == FrameType.NATIVE || type == FrameType.MARKER) && mapping != null && !string(mapping[1]).isEmpty()) {
            String module = moduleName(mappingId, string(mapping[1]));
            long offset = Long.compareUnsigned(address, mapping[0]) >= 0 ? address - mapping[0] : 0;
            return module.isEmpty() ? new Frame(name, type) : Frame.nativeCode(name, module, offset);
        }
        return new Frame(name, type);
    }

    /**
     * The frame of a string label, each distinct one made once (a profile repeats a few labels on every sample);
     * null, and counted for the warning, when its key is no label key.
     */
    private Frame labelFrame(long keyIndex, long valueIndex) {
        // An index outside the table reads as "" (string()), so it is folded to 0 and the cache key fits a long.
        long k = keyIndex >= 0 && keyIndex < strings.size() ? keyIndex : 0;
        long v = valueIndex >= 0 && valueIndex < strings.size() ? valueIndex : 0;
        Long cacheKey = k << 32 | v;
        if (labelFrames.containsKey(cacheKey)) {
            Frame frame = labelFrames.get(cacheKey);
            if (frame == null) {
                badLabels++;
            }
            return frame;
        }
        String key = string(k);
        Frame frame = null;
        if (Frame.isLabelKey(key)) {
            frame = Frame.label(key, string(v));
        } else {
            badLabels++;
            if (badLabelKeys.size() < MAX_BAD_KEYS_NAMED) {
                badLabelKeys.add("'" + CollapsedFrames.sanitize(key.length() > 80 ? key.substring(0, 80) + "…" : key) + "'");
            }
        }
        labelFrames.put(cacheKey, frame);
        return frame;
    }

    private static Frame threadFrame(String label) {
        String name = CollapsedFrames.sanitize(label);
        return CollapsedFrames.threadFrame(name.startsWith("[") && name.endsWith("]") ? name : "[" + name + "]");
    }

    private void mapping(ProtoFields m) throws IOException {
        long id = 0;
        long start = 0;
        long file = 0;
        long buildId = 0;
        while (m.next()) {
            switch (m.field()) {
                case MAPPING_ID -> id = m.varint();
                case MAPPING_MEMORY_START -> start = m.varint();
                case MAPPING_FILENAME -> file = m.varint();
                case MAPPING_BUILD_ID -> buildId = m.varint();
                default -> m.skip();
            }
        }
        boundedPut(mappings, id, new long[] {start, file, buildId}, "mappings");
    }

    private void location(ProtoFields l) throws IOException {
        long id = 0;
        long mapping = 0;
        long address = 0;
        List<Long> functionIds = new ArrayList<>();
        List<Long> lines = new ArrayList<>();
        while (l.next()) {
            switch (l.field()) {
                case LOCATION_ID -> id = l.varint();
                case LOCATION_MAPPING_ID -> mapping = l.varint();
                case LOCATION_ADDRESS -> address = l.varint();
                case LOCATION_LINE -> {
                    ProtoFields line = l.message();
                    long functionId = 0;
                    long number = 0;
                    while (line.next()) {
                        switch (line.field()) {
                            case LINE_FUNCTION_ID -> functionId = line.varint();
                            case LINE_LINE -> number = line.varint();
                            default -> line.skip();
                        }
                    }
                    if (functionId != 0) {
                        functionIds.add(functionId);
                        lines.add(number);
                    }
                }
                default -> l.skip();
            }
        }
        long[] ids = new long[functionIds.size()];
        long[] numbers = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = functionIds.get(i);
            numbers[i] = lines.get(i);
        }
        boundedPut(locations, id, new Location(mapping, address, ids, numbers), "locations");
    }

    private void function(ProtoFields f) throws IOException {
        long id = 0;
        long[] fields = new long[4];
        while (f.next()) {
            switch (f.field()) {
                case FUNCTION_ID -> id = f.varint();
                case FUNCTION_NAME -> fields[0] = f.varint();
                case FUNCTION_SYSTEM_NAME -> fields[1] = f.varint();
                case FUNCTION_FILENAME -> fields[2] = f.varint();
                case FUNCTION_START_LINE -> fields[3] = f.varint();
                default -> f.skip();
            }
        }
        boundedPut(functions, id, fields, "functions");
    }

    private <V> void boundedPut(Map<Long, V> map, long id, V value, String what) throws IOException {
        if (map.size() >= bounds.maxFrames()) {
            throw ReadBounds.exceeded("pprof", bounds.maxFrames(), what);
        }
        map.put(id, value);
    }

    private static long[] valueType(ProtoFields t) throws IOException {
        return twoNumbers(t, VALUE_TYPE_TYPE, VALUE_TYPE_UNIT);
    }

    /**
     * A label's key and string value (string indexes, 0 when absent), then 1 when it is numeric, else 0: numeric, as
     * Go's reader takes it, when it has no string but a number or a unit.
     */
    private static long[] label(ProtoFields l) throws IOException {
        long key = 0;
        long str = 0;
        boolean number = false;
        while (l.next()) {
            switch (l.field()) {
                case LABEL_KEY -> key = l.varint();
                case LABEL_STR -> str = l.varint();
                case LABEL_NUM, LABEL_NUM_UNIT -> number |= l.varint() != 0;
                default -> l.skip();
            }
        }
        return new long[] {key, str, str == 0 && number ? 1 : 0};
    }

    /** The varint fields {@code first} and {@code second} of a message (0 when absent); others are skipped. */
    private static long[] twoNumbers(ProtoFields m, int first, int second) throws IOException {
        long[] values = new long[2];
        while (m.next()) {
            if (m.field() == first) {
                values[0] = m.varint();
            } else if (m.field() == second) {
                values[1] = m.varint();
            } else {
                m.skip();
            }
        }
        return values;
    }

    /** A string of the table; an index outside it reads as empty rather than failing the whole profile. */
    private String string(long index) {
        return index >= 0 && index < strings.size() ? strings.get((int) index) : "";
    }
}
