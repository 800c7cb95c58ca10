package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The wall-clock study's table: process CPU over the measured window, and the idle threads' samples. */
final class WallSection {
    private static final Pattern WINDOW = Pattern.compile("idle: \\d+ threads, process CPU (\\d+) ms over (\\d+) ms");
    private static final double INTERVAL_SECONDS = 0.020;

    private final WallStudy study;
    private final Map<Profiler, String> labels;
    private final Map<Profiler, Measurements> busy = new EnumMap<>(Profiler.class);
    private final Map<Profiler, Measurements> extra = new EnumMap<>(Profiler.class);
    private final Map<Profiler, Measurements> sampleRatio = new EnumMap<>(Profiler.class);

    WallSection(WallStudy study, Map<Profiler, String> labels, WorkloadRunner runner) throws IOException {
        this.study = study;
        this.labels = labels;
        List<ChildRun> baseline = study.runs().getOrDefault(Profiler.NONE, List.of());
        for (Map.Entry<Profiler, List<ChildRun>> e : study.runs().entrySet()) {
            Measurements b = new Measurements();
            Measurements x = new Measurements();
            Measurements s = new Measurements();
            for (int i = 0; i < e.getValue().size(); i++) {
                ChildRun r = e.getValue().get(i);
                OptionalDouble share = coreShare(r);
                if (share.isEmpty()) {
                    continue;
                }
                b.add(share.getAsDouble());
                OptionalDouble base = i < baseline.size() ? coreShare(baseline.get(i)) : OptionalDouble.empty();
                if (base.isPresent()) {
                    // The baseline of the same repetition: the machine's drift touches both alike.
                    x.add(share.getAsDouble() - base.getAsDouble());
                }
                CollapsedProfile profile = runner.profile(r);
                if (profile != null) {
                    // Each idle thread lives through the warm-up and the window; samples of it name the workload.
                    double expected = study.threads() * (study.warmUpSeconds() + study.seconds()) / INTERVAL_SECONDS;
                    s.add(profile.samples(CollapsedProfile.hasFrameContaining("IdleWorkload.parkForever")) / expected);
                }
            }
            busy.put(e.getKey(), b);
            extra.put(e.getKey(), x);
            sampleRatio.put(e.getKey(), s);
        }
    }

    /** The process's CPU time over the window as a share of one core, as the workload printed it. */
    static OptionalDouble coreShare(ChildRun run) {
        Matcher m = WINDOW.matcher(run.stdout());
        return run.succeeded() && m.find()
                ? OptionalDouble.of(Double.parseDouble(m.group(1)) / Double.parseDouble(m.group(2)))
                : OptionalDouble.empty();
    }

    /** The median extra CPU over the run without a profiler, as a share of one core. */
    OptionalDouble extraCoreShare(Profiler p) {
        return extra.getOrDefault(p, new Measurements()).median();
    }

    String table() {
        MarkdownTable t = new MarkdownTable("profiler", "runs", "process CPU in the window, % of one core",
                "extra over none, % of one core (lowest … highest)", "idle-thread samples / expected", "peak RSS");
        for (Profiler p : Profiler.values()) {
            Measurements b = busy.get(p);
            if (b == null) {
                continue;
            }
            Measurements x = extra.get(p);
            String extraText = p == Profiler.NONE ? "—" : orDash(x.median(), WallSection::percentOfCore)
                    + (x.min().isPresent() ? " (" + percentOfCore(x.min().getAsDouble()) + " … "
                    + percentOfCore(x.max().getAsDouble()) + ")" : "");
            t.row(labels.get(p), Integer.toString(study.runs().get(p).size()), orDash(b.median(),
                    WallSection::percentOfCore), extraText,
                    p == Profiler.NONE ? "—" : orDash(sampleRatio.get(p).median(), ReportNumbers::ratio),
                    orDash(WorkloadRunStats.measure(study.runs().get(p), WorkloadRunStats::peakRssKb).median(),
                            ReportNumbers::megabytesOfKb));
        }
        return t.toString();
    }

    /** A share of one core with two decimals: the target is 2%. */
    static String percentOfCore(double share) {
        return ReportNumbers.finePercent(share);
    }
}
