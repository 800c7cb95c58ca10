package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.Profile;
import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes profiles, one period at a time, as a line-based stream another process reads back with
 * {@link SampleStreamReader}: a profiler's helper process sends what it sampled to the JVM it profiles. Each distinct
 * frame is sent once, as {@code F id TYPE name}, followed, when the frame knows where it lies, by tab-separated
 * fields: its module (empty when unknown), its offset in hex and, when it has one, its sampled line; stacks as {@code S samples weightNanos id,id,...} (root first);
 * {@code N text} carries a cost note, {@code R} says the frame ids start again (the table is bounded). Names are
 * escaped so that no name — they come from the profiled application — can break a line or forge a record.
 */
public final class SampleStreamWriter {
    private final Writer out;
    private final int maxFrames;
    private final Map<Frame, Integer> sent = new HashMap<>();

    /**
     * @param out       where lines go
     * @param maxFrames how many frame ids are remembered before the table starts again
     */
    public SampleStreamWriter(Writer out, int maxFrames) {
        this.out = out;
        this.maxFrames = maxFrames;
    }

    /** Writes every stack of one period's profile, then flushes. */
    public void write(Profile period) throws IOException {
        List<Frame> frames = period.frames();
        StringBuilder line = new StringBuilder(256);
        for (Profile.Stack s : period.stacks()) {
            if (sent.size() + s.depth() > maxFrames) {
                sent.clear();
                out.write("R\n");
            }
            line.setLength(0);
            line.append("S ").append(s.samples()).append(' ').append(s.weightNanos()).append(' ');
            int[] ids = s.frameIds();
            for (int i = 0; i < ids.length; i++) {
                if (i > 0) {
                    line.append(',');
                }
                line.append(idOf(frames.get(ids[i])));
            }
            out.write(line.append('\n').toString());
        }
        out.flush();
    }

    /** Writes one cost note. */
    public void note(String text) throws IOException {
        out.write("N " + NameEscaping.escape(text, false) + "\n");
        out.flush();
    }

    private int idOf(Frame f) throws IOException {
        Integer id = sent.get(f);
        if (id == null) {
            id = sent.size();
            sent.put(f, id);
            // Escaping turns every tab inside a name into \u0009, so a tab can separate the module and offset.
            String where = f.module() == null && f.line() == 0 ? ""
                    : "\t" + (f.module() == null ? "" : NameEscaping.escape(f.module(), false))
                    + "\t" + Long.toHexString(f.offset()) + (f.line() == 0 ? "" : "\t" + f.line());
            out.write("F " + id + " " + f.type().name() + " " + NameEscaping.escape(f.name(), false) + where + "\n");
        }
        return id;
    }
}
