package io.mixflame.report;

import io.mixflame.profile.Counts;
import io.mixflame.profile.Durations;
import io.mixflame.profile.Frame;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads collapsed stacks ({@code frame;frame;frame count} per line, root first), as written by
 * {@link CollapsedWriter}, async-profiler or flamegraph.pl's stackcollapse scripts.
 *
 * <p>Lines starting with {@code #} are comments, except that {@link CollapsedWriter}'s header and notes are
 * read back into the profile's info. Blank lines are skipped. A malformed line is reported to the warnings
 * consumer as {@code line N: why} and skipped, and reading goes on. Frame kinds come from
 * {@link CollapsedFrames#parse}. Each stack's weight is its samples times the header's interval, or 0 when
 * there is no header.
 */
public final class CollapsedReader {

    private static final String HEADER = "# mixflame ";
    private static final String NOTE = "# note: ";

    /**
     * Reads every stack of {@code in} (which is read to its end but not closed).
     *
     * @param warnings told about each skipped line, one line of text each
     */
    public Profile read(Reader in, Consumer<String> warnings) throws IOException {
        BufferedReader br = in instanceof BufferedReader b ? b : new BufferedReader(in);
        // Files are trusted to be as large as they are: a reader that silently folded stacks into
        // [overflow] would misreport what the file says.
        ProfileAccumulator acc = new ProfileAccumulator(Integer.MAX_VALUE, Integer.MAX_VALUE, m -> { });
        ProfileInfo header = null;
        List<String> notes = new ArrayList<>();
        List<Frame> frames = new ArrayList<>();
        List<ParsedStack> stacks = new ArrayList<>();
        int lineNumber = 0;
        long totalSamples = 0;
        for (String raw; (raw = br.readLine()) != null; ) {
            lineNumber++;
            String line = raw.stripTrailing();
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("#")) {
                if (header == null && line.startsWith(HEADER)) {
                    header = parseHeader(line.substring(HEADER.length()), lineNumber, warnings);
                } else if (line.startsWith(NOTE)) {
                    notes.add(stripZeroCount(line.substring(NOTE.length())));
                }
                continue;
            }
            int stacksBefore = stacks.size();
            String problem = parseStack(line, frames, stacks);
            if (problem != null) {
                warnings.accept("line " + lineNumber + ": " + problem);
                continue;
            }
            if (stacks.size() > stacksBefore) {
                totalSamples = addToTotal(totalSamples, stacks.get(stacks.size() - 1).samples(), lineNumber);
            }
        }

        // The interval may come from a header after the first stacks (files joined with cat), so weights are
        // computed once the whole file is read.
        long interval = header == null ? 0 : header.intervalNanos();
        for (ParsedStack stack : stacks) {
            acc.add(stack.frames(), stack.samples(), Counts.multiply(stack.samples(), interval));
        }
        ProfileInfo base = header != null ? header : new ProfileInfo("collapsed", "unknown", 0, 0, 0, List.of());
        return acc.snapshot(new ProfileInfo(base.engine(), base.event(), base.intervalNanos(), 0, 0, notes));
    }

    /**
     * The total with one more stack's samples. A file whose counts add up past what a long holds says
     * nothing usable: every share computed from a capped total would be wrong, so it is refused.
     */
    private static long addToTotal(long total, long samples, int lineNumber) throws IOException {
        try {
            return Math.addExact(total, samples);
        } catch (ArithmeticException e) {
            throw new IOException("line " + lineNumber + ": the sample counts add up to more than "
                    + Long.MAX_VALUE + ", more than a profile can hold");
        }
    }

    private record ParsedStack(Frame[] frames, long samples) {
    }

    /**
     * Parses one stack line and appends it to {@code stacks} (unless its count is 0: such a line stands for
     * nothing, and comment lines of other tools end that way); returns why the line is malformed instead, or
     * null when it is fine. {@code frames} is scratch space.
     */
    private static String parseStack(String line, List<Frame> frames, List<ParsedStack> stacks) {
        int space = line.lastIndexOf(' ');
        if (space < 0) {
            return "no sample count (expected 'frame;frame;... count')";
        }
        String countText = line.substring(space + 1);
        long count;
        try {
            count = Long.parseLong(countText);
        } catch (NumberFormatException e) {
            return "sample count '" + countText + "' is not a whole number";
        }
        if (count < 0) {
            return "sample count " + count + " is negative";
        }
        frames.clear();
        String stack = line.substring(0, space);
        for (int from = 0; from <= stack.length(); ) {
            int to = stack.indexOf(';', from);
            if (to < 0) {
                to = stack.length();
            }
            if (to == from) {
                return "empty frame name at frame " + (frames.size() + 1);
            }
            frames.add(CollapsedFrames.parse(stack.substring(from, to)));
            from = to + 1;
        }
        if (count > 0) {
            stacks.add(new ParsedStack(frames.toArray(new Frame[0]), count));
        }
        return null;
    }

    private static ProfileInfo parseHeader(String text, int lineNumber, Consumer<String> warnings) {
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
