package io.mixflame.report;

/**
 * How to shape a profile when writing it, with async-profiler's meanings.
 *
 * @param title   the HTML page's title, or null for one describing the profile (the engine is always named)
 * @param filter  which stacks to keep ({@link FrameFilter}, {@link NamePattern})
 * @param reverse write stacks leaf first (an HTML flame graph is then drawn as an icicle); a thread's root
 *                frame stays first, as in async-profiler
 * @param style   how frames are spelled ({@code ann}, {@code sig}, {@code lib})
 * @param text    what the text output ({@link OutputFormat#TEXT}) holds
 * @param spanFrames whether the outputs that keep only names (collapsed, HTML, text) show each sample's trace span as
 *                a {@code [span=NAME]} frame; without it they leave spans out, so that stacks stay aggregated
 */
public record ReportOptions(String title, FrameFilter filter, boolean reverse, FrameStyle style, TextSummary text,
                            boolean spanFrames) {

    /** Without span frames. */
    public ReportOptions(String title, FrameFilter filter, boolean reverse, FrameStyle style, TextSummary text) {
        this(title, filter, reverse, style, text, false);
    }

    /** With async-profiler's text output where text is written ({@link TextSummary#DEFAULT}). */
    public ReportOptions(String title, FrameFilter filter, boolean reverse, FrameStyle style) {
        this(title, filter, reverse, style, TextSummary.DEFAULT);
    }

    /** No title of the caller's, every stack, root first, async-profiler's default spelling. */
    public static final ReportOptions DEFAULT = new ReportOptions(null, FrameFilter.NONE, false, FrameStyle.DEFAULT);
}
