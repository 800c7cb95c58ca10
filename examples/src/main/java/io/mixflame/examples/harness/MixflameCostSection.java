package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * mixflame's account of its own cost: the {@code # note:} lines of its profiles, passed through as written, and
 * the per-sample times in them ({@code … 4.1 µs p50 / 15.0 µs p99 per sample}) when there are any.
 */
final class MixflameCostSection {
    private static final Pattern PER_SAMPLE = Pattern.compile("([\\d.]+) µs p50 / ([\\d.]+) µs p99 per sample");

    private final List<String[]> notes = new ArrayList<>();
    private final Measurements p50 = new Measurements();
    private final Measurements p99 = new Measurements();

    MixflameCostSection(WorkloadRunner runner, List<ChildRun> mixflameRuns) throws IOException {
        for (ChildRun r : mixflameRuns) {
            CollapsedProfile profile = r.succeeded() ? runner.profile(r) : null;
            if (profile == null) {
                continue;
            }
            for (String note : profile.notes()) {
                notes.add(new String[] {r.dir().getFileName().toString(), note});
                Matcher m = PER_SAMPLE.matcher(note);
                if (m.find()) {
                    p50.add(Double.parseDouble(m.group(1)));
                    p99.add(Double.parseDouble(m.group(2)));
                }
            }
        }
    }

    /** Median over runs of the per-sample p50, in µs. */
    OptionalDouble perSampleP50Micros() {
        return p50.median();
    }

    /** Median over runs of the per-sample p99, in µs. */
    OptionalDouble perSampleP99Micros() {
        return p99.median();
    }

    /** The notes as a table, or a sentence saying there were none. */
    String text() {
        if (notes.isEmpty()) {
            return "mixflame's profiles carried no `# note:` lines, so there is no account of its own cost.\n";
        }
        MarkdownTable t = new MarkdownTable("run", "note");
        notes.forEach(n -> t.row("`" + n[0] + "`", n[1].replace("|", "\\|")));
        return t.toString();
    }

    /** The mixflame runs at 10 ms (CPU) or 20 ms (wall clock) of every study; {@code wall} may be null. */
    static List<ChildRun> runsOf(OverheadStudy overhead, MixedStudy mixed, WallStudy wall) {
        List<ChildRun> runs = new ArrayList<>(overhead.cpu().of(Profiler.MIXFLAME));
        runs.addAll(overhead.saturate().of(Profiler.MIXFLAME));
        runs.addAll(overhead.service().of(Profiler.MIXFLAME));
        ChildRun m = mixed.runs().get(Profiler.MIXFLAME);
        if (m != null) {
            runs.add(m);
        }
        if (wall != null) {
            runs.addAll(wall.runs().getOrDefault(Profiler.MIXFLAME, List.of()));
        }
        return runs;
    }
}
