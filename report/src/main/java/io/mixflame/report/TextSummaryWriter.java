package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.Profile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * async-profiler's text output ({@code summary}, {@code traces=N}, {@code flat=N}): a summary of the profile (its
 * engine, event, interval, samples and notes), then its {@code traces} heaviest stacks, leaf first, each with its
 * samples and share, then its {@code flat} hottest frames by self samples ({@link TopTable}). Frame names are
 * sanitized as collapsed stacks' are, so that an application's names cannot break a line.
 */
public final class TextSummaryWriter implements ProfileWriter {
    private static final Comparator<Profile.Stack> HEAVIEST_FIRST =
            Comparator.comparingLong(Profile.Stack::samples).reversed();

    private final TextSummary parts;
    private final FrameStyle style;

    /**
     * @param parts what to write
     * @param style how frames are named
     */
    public TextSummaryWriter(TextSummary parts, FrameStyle style) {
        this.parts = parts;
        this.style = style;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        Writer w = new OutputStreamWriter(new NonClosingOutputStream(out), StandardCharsets.UTF_8);
        long total = profile.totalSamples();
        if (parts.summary()) {
            w.write("--- Execution profile ---\n");
            line(w, "Engine", CollapsedFrames.sanitize(profile.info().engine()));
            line(w, "Event", CollapsedFrames.sanitize(profile.info().event()));
            line(w, "Interval", profile.info().intervalNanos() + " ns");
            line(w, "Total samples", Long.toString(total));
            if (profile.totalWeightNanos() > 0) {
                line(w, "Total weight", profile.totalWeightNanos() + " ns");
            }
            line(w, "Distinct stacks", Integer.toString(profile.stacks().size()));
            for (String note : profile.info().notes()) {
                w.write("Note: " + CollapsedFrames.sanitize(note) + "\n");
            }
            w.write('\n');
        }
        if (parts.traces() > 0) {
            List<Profile.Stack> stacks = new ArrayList<>(profile.stacks());
            stacks.sort(HEAVIEST_FIRST);
            int shown = (int) Math.min(parts.traces(), stacks.size());
            for (int i = 0; i < shown; i++) {
                Profile.Stack s = stacks.get(i);
                w.write("--- " + s.samples() + " samples (" + percent(s.samples(), total) + ")"
                        + (s.weightNanos() > 0 ? ", " + s.weightNanos() + " ns" : "") + "\n");
                Frame[] frames = profile.framesOf(s);
                for (int d = frames.length - 1, n = 0; d >= 0; d--, n++) {
                    w.write("  [" + pad(n, frames.length - 1) + "] "
                            + CollapsedFrames.sanitize(style.name(frames[d])) + "\n");
                }
                w.write('\n');
            }
        }
        if (parts.flat() > 0) {
            w.write(TopTable.render(HotFrames.of(profile), (int) Math.min(Integer.MAX_VALUE, parts.flat())));
        }
        w.flush();
    }

    private static void line(Writer w, String name, String value) throws IOException {
        w.write(String.format(Locale.ROOT, "%-20s: %s%n", name, value).replace(System.lineSeparator(), "\n"));
    }

    private static String pad(int n, int most) {
        String s = Integer.toString(n);
        int width = Integer.toString(Math.max(most, 0)).length();
        return " ".repeat(Math.max(0, width - s.length())) + s;
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "0.00%" : String.format(Locale.ROOT, "%.2f%%", 100.0 * part / whole);
    }
}
