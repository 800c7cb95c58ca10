package io.mixflame.report;

import io.mixflame.profile.Profile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import one.convert.Arguments;
import one.convert.FlameGraph;

/**
 * A differential flame graph: the shape of the later profile, each frame coloured by how much its self
 * samples changed from the earlier one (async-profiler's FlameGraph diff). Frames absent before are marked
 * new.
 *
 * <p>Two profiles rarely have the same number of samples, so the earlier one's counts are first scaled to
 * the later one's total; colours then show a change of share, not of length of recording. The title says
 * by how much.
 */
public final class DiffFlameGraph {

    private DiffFlameGraph() {
    }

    /**
     * Writes the diff as an HTML page; {@code out} is left open.
     *
     * @param title the caller's title, or null for one describing both profiles; the engines and the scaling
     *              are always added
     */
    public static void write(Profile before, Profile after, OutputStream out, String title) throws IOException {
        long beforeTotal = before.totalSamples();
        long afterTotal = after.totalSamples();
        double scale = beforeTotal == 0 ? 1.0 : (double) afterTotal / beforeTotal;

        FlameGraphs.onDeepStack(() -> {
            FlameGraph base = new FlameGraph(new Arguments());
            FlameGraphs.addAll(base, before, scale, FrameStyle.DEFAULT);

            Arguments args = new Arguments();
            args.title = FlameGraphs.htmlTitle(title(before, after, scale, title));
            FlameGraph graph = FlameGraphs.build(after, args, FrameStyle.DEFAULT);
            graph.diff(base);
            FlameGraphs.dumpHtml(graph, out);
            return null;
        });
    }

    static String title(Profile before, Profile after, double scale, String callerTitle) {
        String counts = "after: " + FlameGraphs.count(after.totalSamples()) + " samples, "
                + after.info().engine() + " engine; before: " + FlameGraphs.count(before.totalSamples())
                + " samples, " + before.info().engine() + " engine, scaled ×"
                + String.format(Locale.ROOT, "%.3f", scale) + " to after's total";
        String head = callerTitle != null ? callerTitle : "mixflame diff: " + after.info().event() + " profile";
        return head + " — " + counts;
    }
}
