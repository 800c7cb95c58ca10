package io.mixflame.report;

import io.mixflame.profile.Durations;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads collapsed stacks ({@code frame;frame;frame count} per line, root first), as written by
 * {@link CollapsedWriter}, async-profiler or flamegraph.pl's stackcollapse scripts.
 *
 * <p>Lines starting with {@code #} are comments, except that {@link CollapsedWriter}'s header and notes are
 * read back into the profile's info. Blank lines are skipped. A malformed line (not UTF-8, no count, a count
 * that is not a whole number of samples, an empty frame) is reported to the warnings consumer as
 * {@code line N: why} and skipped, and reading goes on. Frame kinds come from {@link CollapsedFrames#parse}, and at a
 * stack's root end from {@link CollapsedFrames#parseAtRoot}, which recovers thread and label frames.
 * Each stack's weight is its samples times the header's interval, or 0 when there is no header.
 *
 * <p>The input is read one line at a time, within {@link ReadBounds}; going past a bound, or counts that add up
 * past {@link Long#MAX_VALUE}, fails the read with an {@link IOException} of one line naming the line.
 */
public final class CollapsedReader {

    private static final String HEADER = "# mixflame ";
    private static final String NOTE = "# note: ";

    private final ReadBounds bounds;

    /** A reader within {@link ReadBounds#DEFAULT}. */
    public CollapsedReader() {
        this(ReadBounds.DEFAULT);
    }

    /** A reader within the given bounds. */
    public CollapsedReader(ReadBounds bounds) {
        this.bounds = bounds;
    }

    /**
     * Reads every stack of {@code in} (which is read to its end but not closed).
     *
     * @param warnings told about each skipped line, one line of text each
     * @throws IOException when reading fails or the input goes past a bound
     */
    public Profile read(InputStream in, Consumer<String> warnings) throws IOException {
        Parse parse = parse(warnings);
        BoundedLineSplitter lines = parse.lines();
        in.transferTo(lines);
        lines.finish();
        return parse.profile();
    }

    /** A parse fed by writing lines to {@link Parse#lines()}, for text that is written rather than read. */
    Parse parse(Consumer<String> warnings) {
        return new Parse(warnings);
    }

    /** One read in progress: lines go in through {@link #lines()}, the profile comes out of {@link #profile()}. */
    final class Parse implements BoundedLineSplitter.LineHandler {
        private final Consumer<String> warnings;
        private final BoundedLineSplitter lines = new BoundedLineSplitter(bounds.maxLineBytes(), this);
        // Files are trusted to be as large as the bounds allow: a reader that silently folded stacks into
        // [overflow] would misreport what the file says, so the accumulator's own caps are never reached.
        private final ProfileAccumulator acc = new ProfileAccumulator(Integer.MAX_VALUE, Integer.MAX_VALUE, m -> { });
        private final List<String> notes = new ArrayList<>();
        private ProfileInfo header;
        private long noteChars;
        private long totalSamples;
        private Frame[] frames = new Frame[64];
        private int depth;

        private Parse(Consumer<String> warnings) {
            this.warnings = warnings;
        }

        /** Where the text goes; {@link BoundedLineSplitter#finish()} it before {@link #profile()}. */
        BoundedLineSplitter lines() {
            return lines;
        }

        @Override
        public void line(byte[] bytes, int length, long lineNumber) throws IOException {
            String raw = BoundedLineSplitter.utf8OrNull(bytes, length);
            if (raw == null) {
                warnings.accept("line " + lineNumber + ": is not UTF-8 text");
                return;
            }
            String line = raw.stripTrailing();
            if (line.isBlank()) {
                return;
            }
            if (line.startsWith("#")) {
                if (header == null && line.startsWith(HEADER)) {
                    header = parseHeader(line.substring(HEADER.length()), lineNumber, warnings);
                } else if (line.startsWith(NOTE)) {
                    String note = stripZeroCount(line.substring(NOTE.length()));
                    noteChars += note.length();
                    notes.add(note);
                    checkText(lineNumber);
                }
                return;
            }
            String problem = parseStack(line, lineNumber);
            if (problem != null) {
                warnings.accept("line " + lineNumber + ": " + problem);
            }
        }

        /**
         * Parses one stack line into the accumulator (unless its count is 0: such a line stands for nothing, and
         * comment lines of other tools end that way); returns why the line is malformed instead, or null when it
         * is fine.
         */
        private String parseStack(String line, long lineNumber) throws IOException {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                return "no sample count (expected 'frame;frame;... count')";
            }
            String countText = line.substring(space + 1);
            long count;
            try {
                count = Long.parseLong(countText);
            } catch (NumberFormatException e) {
                return countText.chars().allMatch(c -> c >= '0' && c <= '9')
                        ? "sample count " + countText + " is larger than " + Long.MAX_VALUE
                        : "sample count '" + countText + "' is not a whole number";
            }
            if (count < 0) {
                return "sample count " + count + " is negative";
            }
            depth = 0;
            String stack = line.substring(0, space);
            // Labels are recognised at the root end only: deeper in, a bracketed name is a marker.
            boolean rootEnd = true;
            for (int from = 0; from <= stack.length(); ) {
                int to = stack.indexOf(';', from);
                if (to < 0) {
                    to = stack.length();
                }
                if (to == from) {
                    return "empty frame name at frame " + (depth + 1);
                }
                if (depth == bounds.maxStackDepth()) {
                    throw ReadBounds.exceeded(lineNumber, bounds.maxStackDepth(), "frames in one stack");
                }
                if (depth == frames.length) {
                    frames = Arrays.copyOf(frames, Math.min(2 * depth, bounds.maxStackDepth()));
                }
                String token = stack.substring(from, to);
                Frame frame;
                if (rootEnd) {
                    frame = CollapsedFrames.parseAtRoot(token, depth == 0);
                    rootEnd = frame.type() == FrameType.LABEL || depth == 0 && frame.type() == FrameType.THREAD;
                } else {
                    frame = CollapsedFrames.parse(token);
                }
                frames[depth++] = frame;
                from = to + 1;
            }
            if (count > 0) {
                totalSamples = addToTotal(totalSamples, count, lineNumber);
                // The weight waits for the header's interval, which may come after the stacks (files joined
                // with cat): see profile().
                acc.add(frames, depth, count, 0);
                checkHeld(lineNumber);
            }
            Arrays.fill(frames, 0, depth, null);
            return null;
        }

        private void checkHeld(long lineNumber) throws IOException {
            if (acc.distinctStacks() > bounds.maxStacks()) {
                throw ReadBounds.exceeded(lineNumber, bounds.maxStacks(), "distinct stacks in one read");
            }
            if (acc.distinctFrames() > bounds.maxFrames()) {
                throw ReadBounds.exceeded(lineNumber, bounds.maxFrames(), "distinct frames in one read");
            }
            if (acc.stackFrames() > bounds.maxStackFrames()) {
                throw ReadBounds.exceeded(lineNumber, bounds.maxStackFrames(),
                        "frames in all distinct stacks of one read");
            }
            checkText(lineNumber);
        }

        private void checkText(long lineNumber) throws IOException {
            if (acc.frameNameChars() + noteChars > bounds.maxTextChars()) {
                throw ReadBounds.exceeded(lineNumber, bounds.maxTextChars(),
                        "characters of frame names and notes in one read");
            }
        }

        /** The profile read so far. */
        Profile profile() {
            long interval = header == null ? 0 : header.intervalNanos();
            ProfileInfo base = header != null ? header : new ProfileInfo("collapsed", "unknown", 0, 0, 0, List.of());
            return acc.snapshot(new ProfileInfo(base.engine(), base.event(), base.intervalNanos(), 0, 0, notes))
                    .withSampleWeight(interval);
        }
    }

    /**
     * The total with one more stack's samples. A file whose counts add up past what a long holds says
     * nothing usable: every share computed from a capped total would be wrong, so it is refused.
     */
    private static long addToTotal(long total, long samples, long lineNumber) throws IOException {
        try {
            return Math.addExact(total, samples);
        } catch (ArithmeticException e) {
            throw new IOException("line " + lineNumber + ": the sample counts add up to more than "
                    + Long.MAX_VALUE + ", more than a profile can hold");
        }
    }

    /** The producer a header line after {@code # mixflame } describes (also pprof's comment of the same form). */
    static ProfileInfo parseHeader(String text, long lineNumber, Consumer<String> warnings) {
        String engine = "collapsed";
        String event = "unknown";
        long interval = 0;
        for (String token : stripZeroCount(text).split(" ")) {
            int eq = token.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String value = token.substring(eq + 1);
            switch (token.substring(0, eq)) {
                case "engine" -> engine = value;
                case "event" -> event = value;
                case "interval" -> {
                    try {
                        interval = Durations.parseNanos(value, 1);
                    } catch (IllegalArgumentException e) {
                        warnings.accept("line " + lineNumber + ": header interval ignored: " + e.getMessage());
                    }
                }
                default -> {
                    // samples= and keys of later versions: nothing to recover
                }
            }
        }
        return new ProfileInfo(engine, event, interval, 0, 0, List.of());
    }

    /** Drops the {@code " 0"} that {@link CollapsedWriter} puts at the end of comment lines. */
    private static String stripZeroCount(String text) {
        return text.endsWith(" 0") ? text.substring(0, text.length() - 2) : text;
    }
}
