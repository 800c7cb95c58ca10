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
    /** The same figures without the start-up, which the engine adds to runs longer than its warm-up. */
    private static final Pattern WARM = Pattern.compile("after the first 10 s: " + PER_SAMPLE.pattern());

    private final List<String[]> notes = new ArrayList<>();
    private final Measurements p50 = new Measurements();
    private final Measurements p99 = new Measurements();
    private final Measurements warmP50 = new Measurements();
    private final Measurements warmP99 = new Measurements();

    MixflameCostSection(WorkloadRunner runner, List<ChildRun> mixflameRuns) throws IOException {
        for (ChildRun r : mixflameRuns) {
            CollapsedProfile profile = r.succeeded() ? runner.profile(r) : null;
            if (profile == null) {
                continue;
            }
            for (String note : profile.notes()) {
                notes.add(new String[] {r.dir().getFileName().toString(), note});
                addFigures(perSample(note), p50, p99);
                addFigures(warmPerSample(note), warmP50, warmP99);
            }
        }
    }

    /** The per-sample p50 and p99 (µs) a note gives for the whole run, or null. */
    static double[] perSample(String note) {
        return figures(PER_SAMPLE, note);
    }

    /** The per-sample p50 and p99 (µs) a note gives for the time after the engine's warm-up, or null. */
    static double[] warmPerSample(String note) {
        return figures(WARM, note);
    }

    private static double[] figures(Pattern pattern, String note) {
        Matcher m = pattern.matcher(note);
        return m.find() ? new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))} : null;
    }

    private static void addFigures(double[] figures, Measurements p50s, Measurements p99s) {
        if (figures != null) {
            p50s.add(figures[0]);
            p99s.add(figures[1]);
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

    /** Median over the runs longer than the engine's warm-up of the per-sample p50 after it, in µs. */
    OptionalDouble warmP50Micros() {
        return warmP50.median();
    }

    /** Median over the runs longer than the engine's warm-up of the per-sample p99 after it, in µs. */
    OptionalDouble warmP99Micros() {
        return warmP99.median();
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
