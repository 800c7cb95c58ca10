package io.mixflame.report;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.OutputStream;
import one.convert.Arguments;

/**
 * Writes an interactive HTML flame graph, rendered by async-profiler's converter (FlameGraph), sized by
 * samples. The title always names the engine that made the profile.
 */
public final class HtmlFlameGraphWriter implements ProfileWriter {

    private final String title;
    private final boolean reverse;
    private final FrameStyle style;

    /** A writer with a title describing the profile, root at the bottom, async-profiler's default spelling. */
    public HtmlFlameGraphWriter() {
        this(null, false, FrameStyle.DEFAULT);
    }

    /**
     * @param title   the caller's title, or null for one describing the profile; either way the engine and
     *                the profile's notes are added
     * @param reverse draw stacks leaf first, as an icicle, the thread's root frame and the labels after it kept
     *                first ({@link ProfileTransforms#reverse})
     * @param style   how frame names are spelled; the page shows a frame's kind by its colour, not a suffix
     */
    public HtmlFlameGraphWriter(String title, boolean reverse, FrameStyle style) {
        this.title = title;
        this.reverse = reverse;
        this.style = style;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        Arguments args = new Arguments();
        args.title = FlameGraphs.htmlTitle(title(profile, title));
        // FlameGraph's own reverse mode keeps a thread frame first but would put the labels after it at the leaf end;
        // the stacks are reversed here instead, and "inverted" draws them as reverse would, as an icicle.
        args.inverted = reverse;
        Profile drawn = reverse ? ProfileTransforms.reverse(profile) : profile;
        FlameGraphs.onDeepStack(() -> {
            FlameGraphs.dumpHtml(FlameGraphs.build(drawn, args, style), out);
            return null;
        });
    }

    /**
     * The page title: {@code mixflame: cpu profile (jfr engine), 1 234 samples}, or the caller's title with
     * {@code — engine jfr}; then the profile's notes, if any.
     */
    static String title(Profile profile, String callerTitle) {
        ProfileInfo info = profile.info();
        String base = callerTitle != null
                ? callerTitle + " — engine " + info.engine()
                : "mixflame: " + FlameGraphs.describe(info) + ", " + FlameGraphs.count(profile.totalSamples())
                        + " samples";
        return info.notes().isEmpty() ? base : base + " — " + String.join("; ", info.notes());
    }
}
