package io.mixflame.report;

/**
 * What async-profiler's text output holds: the summary, the {@code traces} heaviest stacks and the {@code flat}
 * hottest frames (0: none of them).
 *
 * @param summary whether the summary is written
 * @param traces  how many stacks, heaviest first
 * @param flat    how many frames, by self samples
 */
public record TextSummary(boolean summary, long traces, long flat) {
    /** What async-profiler writes when a file's name picks text: the summary, 100 stacks and 200 frames. */
    public static final TextSummary DEFAULT = new TextSummary(true, 100, 200);
}
