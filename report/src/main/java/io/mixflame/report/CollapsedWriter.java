package io.mixflame.report;

import io.mixflame.profile.Counts;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes collapsed stacks: one line per stack, frames root first joined by {@code ;} and spelled in a
 * {@link FrameStyle} ({@link CollapsedFrames}), a space and the sample count; lines sorted so equal profiles give
 * equal files.
 *
 * <p>The first line is a header {@code # mixflame engine=jfr event=cpu interval=10ms samples=N 0}, then one
 * {@code # note: … 0} line per note of the profile's info. The trailing {@code 0} makes tools that know no
 * comments (flamegraph.pl, async-profiler's converter) read these lines as stacks with zero samples rather
 * than fail on them; {@link CollapsedReader} reads them back into the profile's info.
 */
public final class CollapsedWriter implements ProfileWriter {

    private final FrameStyle style;

    /** A writer in async-profiler's default spelling. */
    public CollapsedWriter() {
        this(FrameStyle.DEFAULT);
    }

    /** A writer spelling frames in {@code style}. */
    public CollapsedWriter(FrameStyle style) {
        this.style = style;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        // Distinct stacks can print the same (two names that sanitize alike, NATIVE and STUB frames of one
        // name, frames told apart only by a suffix or a parameter list the style leaves out); merging them keeps one line per stack, which is what readers expect.
        Map<String, Long> lines = new TreeMap<>();
        StringBuilder sb = new StringBuilder();
        String[] names = CollapsedFrames.spellAll(profile, style, true);
        for (Profile.Stack stack : profile.stacks()) {
            sb.setLength(0);
            int[] ids = stack.frameIds();
            for (int i = 0; i < ids.length; i++) {
                if (i > 0) {
                    sb.append(';');
                }
                sb.append(names[ids[i]]);
            }
            lines.merge(sb.toString(), stack.samples(), Counts::add);
        }

        Writer w = new BufferedWriter(new OutputStreamWriter(new NonClosingOutputStream(out), StandardCharsets.UTF_8));
        ProfileInfo info = profile.info();
        w.write(header(info, profile.totalSamples()));
        w.write('\n');
        for (String note : info.notes()) {
            w.write("# note: " + CollapsedFrames.sanitize(note) + " 0\n");
        }
        for (Map.Entry<String, Long> line : lines.entrySet()) {
            w.write(line.getKey());
            w.write(' ');
            w.write(Long.toString(line.getValue()));
            w.write('\n');
        }
        w.flush();
    }

    /** The header line, without its line break. */
    static String header(ProfileInfo info, long totalSamples) {
        return "# mixflame " + CollapsedFrames.sanitize(info.describe()) + " samples=" + totalSamples + " 0";
    }
}
