package io.mixflame.report;

import java.util.regex.Pattern;

/**
 * How to shape a profile when writing it, with async-profiler's meanings.
 *
 * <p>A stack is kept when some frame's name matches {@code include} (if given) and no frame's name matches
 * {@code exclude} (if given). Unlike async-profiler, which needs a pattern to match a whole name, a pattern
 * here matches anywhere in the name ({@link java.util.regex.Matcher#find()}): {@code HashMap} keeps every
 * stack through any {@code HashMap} method; anchor with {@code ^…$} for whole names. Names are matched
 * without the collapsed type suffixes.
 *
 * @param title   the HTML page's title, or null for one describing the profile (the engine is always named)
 * @param include keep only stacks with a frame matching this, or null to keep all
 * @param exclude drop stacks with a frame matching this, or null to drop none
 * @param reverse write stacks leaf first (an HTML flame graph is then drawn as an icicle); a thread's root
 *                frame stays first, as in async-profiler
 */
public record ReportOptions(String title, Pattern include, Pattern exclude, boolean reverse) {

    /** No title of the caller's, every stack, root first. */
    public static final ReportOptions DEFAULT = new ReportOptions(null, null, null, false);
}
