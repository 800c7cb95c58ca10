package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.Profile;
import io.mixflame.profile.SampleTimes;
import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes profiles, one period at a time, as a line-based stream another process reads back with
 * {@link SampleStreamReader}: a profiler's helper process sends what it sampled to the JVM it profiles. Each distinct
 * frame is sent once, as {@code F id TYPE name}, followed, when the frame knows where it lies, by tab-separated
 * fields: its module (empty when unknown), its offset in hex and, when it has one, its sampled line; stacks as
 * {@code S samples weightNanos id,id,...} (root first), followed by the samples' time in nanoseconds since the epoch
 * when the period has times (a stack's weight shared among its times in proportion);
 * {@code N text} carries a cost note, {@code R} says the frame ids start again (the table is bounded),
 * {@code M name path buildId} (tab-separated) a native module the samples ran in, each sent once. Names are
 * escaped so that no name — they come from the profiled application — can break a line or forge a record.
 */
public final class SampleStreamWriter {
    private final Writer out;
    private final int maxFrames;
    private final Map<Frame, Integer> sent = new HashMap<>();
    private final Set<NativeModule> sentModules = new HashSet<>();
    private final StringBuilder line = new StringBuilder(256);

    /**
     * @param out       where lines go
     * @param maxFrames how many frame ids are remembered before the table starts again
     */
    public SampleStreamWriter(Writer out, int maxFrames) {
        this.out = out;
        this.maxFrames = maxFrames;
    }

    /** Writes every stack of one period's profile, at their times when it has them, then flushes. */
    public void write(Profile period) throws IOException {
        List<Profile.Stack> stacks = period.stacks();
        long[] samplesLeft = new long[stacks.size()];
        long[] weightLeft = new long[stacks.size()];
        for (int s = 0; s < samplesLeft.length; s++) {
            samplesLeft[s] = stacks.get(s).samples();
            weightLeft[s] = stacks.get(s).weightNanos();
        }
        SampleTimes runs = period.sampleRuns();
        for (int i = 0; i < runs.size(); i++) {
            int s = runs.stack(i);
            long samples = runs.count(i);
            // A stack's last run takes the rest of its weight, so that shares add up to it exactly.
            long weight = samples == samplesLeft[s] ? weightLeft[s]
                    : (long) ((double) weightLeft[s] * samples / samplesLeft[s]);
            samplesLeft[s] -= samples;
            weightLeft[s] -= weight;
            long at = runs.epochNanos(i);
            stack(period, stacks.get(s), samples, weight, at == SampleTimes.NO_TIME ? "" : " " + at);
        }
        out.flush();
    }

    private void stack(Profile period, Profile.Stack s, long samples, long weight, String time) throws IOException {
        if (sent.size() + s.depth() > maxFrames) {
            sent.clear();
            out.write("R\n");
        }
        line.setLength(0);
        line.append("S ").append(samples).append(' ').append(weight).append(' ');
        int[] ids = s.frameIds();
        for (int i = 0; i < ids.length; i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append(idOf(period.frame(ids[i])));
        }
        out.write(line.append(time).append('\n').toString());
    }

    /**
     * Writes the modules not sent before, in their order (the reader keeps it: the main executable first), then
     * flushes.
     */
    public void modules(List<NativeModule> modules) throws IOException {
        for (NativeModule m : modules) {
            if (sentModules.add(m)) {
                out.write("M " + NameEscaping.escape(m.name(), false) + "\t" + NameEscaping.escape(m.path(), false)
                        + "\t" + NameEscaping.escape(m.buildId(), false) + "\n");
            }
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
