package io.mixflame.report;

import io.mixflame.profile.Frame;
import java.util.List;

/**
 * Which stacks a profile keeps, by frame name, with async-profiler's meaning of repeated {@code include} and
 * {@code exclude}: a stack is kept when some frame matches any include pattern (or none is given) and no frame
 * matches any exclude pattern.
 *
 * @param include patterns of which one must match some frame; empty to keep every stack
 * @param exclude patterns none of which may match any frame
 */
public record FrameFilter(List<NamePattern> include, List<NamePattern> exclude) {

    /** Keeps every stack. */
    public static final FrameFilter NONE = new FrameFilter(List.of(), List.of());

    public FrameFilter {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
    }

    /** True when it keeps every stack. */
    public boolean keepsAll() {
        return include.isEmpty() && exclude.isEmpty();
    }

    /**
     * Whether a stack is kept. Frames are matched by their names as {@code style} writes them, without type
     * suffixes, so a pattern matches what the user reads in the output.
     */
    public boolean keeps(Frame[] frames, FrameStyle style) {
        boolean included = include.isEmpty();
        for (Frame frame : frames) {
            String n = style.name(frame);
            if (anyMatches(exclude, n)) {
                return false;
            }
            if (!included && anyMatches(include, n)) {
                included = true;
            }
        }
        return included;
    }

    private static boolean anyMatches(List<NamePattern> patterns, String name) {
        for (NamePattern p : patterns) {
            if (p.matches(name)) {
                return true;
            }
        }
        return false;
    }
}
