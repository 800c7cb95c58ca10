package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The overhead tables. Each ratio is the median over repetitions of a run's figure divided by the figure of the
 * run without a profiler in the same repetition: pairing runs that ran minutes apart at most cancels most of a
 * shared machine's slow drifts.
 */
final class OverheadSection {
    private final OverheadStudy study;
    private final Map<Profiler, String> labels;

    OverheadSection(OverheadStudy study, Map<Profiler, String> labels) {
        this.study = study;
        this.labels = labels;
    }

    /** How much longer the fixed CPU work took than without a profiler, as a fraction, per repetition. */
    Measurements cpuCosts(Profiler p) {
        Measurements costs = new Measurements();
        pairedRatios(study.cpu(), p, WorkloadRunStats::cpuWorkMillis).forEach(r -> costs.add(r - 1));
        return costs;
    }

    /** How much less throughput the service had than without a profiler, as a fraction, per repetition. */
    Measurements serviceCosts(Profiler p) {
        Measurements costs = new Measurements();
        pairedRatios(study.service(), p, WorkloadRunStats::requestsPerSecond).forEach(r -> costs.add(1 - r));
        return costs;
    }

    /** (max − min) / median of the work time of the runs without a profiler: the noise a cost is read against. */
    OptionalDouble cpuBaselineSpread() {
        return WorkloadRunStats.measure(study.cpu().get(Profiler.NONE), WorkloadRunStats::cpuWorkMillis).spread();
    }

    /** The same for the service's throughput. */
    OptionalDouble serviceBaselineSpread() {
        return WorkloadRunStats.measure(study.service().get(Profiler.NONE), WorkloadRunStats::requestsPerSecond)
                .spread();
    }

    String cpuTable() {
        MarkdownTable t = new MarkdownTable("profiler", "runs", "work time ratio", "cost (lowest … highest)",
                "spread of runs",
                "process wall ratio", "process CPU ratio", "peak RSS", "peak RSS ratio");
        Map<Profiler, List<ChildRun>> runs = study.cpu();
        for (Profiler p : Profiler.values()) {
            Measurements work = WorkloadRunStats.measure(runs.get(p), WorkloadRunStats::cpuWorkMillis);
            t.row(labels.get(p), Integer.toString(work.count()),
                    ratio(runs, p, WorkloadRunStats::cpuWorkMillis),
                    costWithRange(cpuCosts(p)),
                    orDash(work.spread(), ReportNumbers::percent),
                    ratio(runs, p, r -> OptionalDouble.of(r.wallNanos())),
                    ratio(runs, p, r -> OptionalDouble.of(r.cpuMillis())),
                    megabytes(runs, p), ratio(runs, p, WorkloadRunStats::peakRssKb));
        }
        return t.toString();
    }

    String serviceTable() {
        MarkdownTable t = new MarkdownTable("profiler", "runs", "requests/s ratio", "cost (lowest … highest)",
                "spread of runs",
                "process CPU per request ratio", "peak RSS", "peak RSS ratio");
        Map<Profiler, List<ChildRun>> runs = study.service();
        for (Profiler p : Profiler.values()) {
            Measurements rps = WorkloadRunStats.measure(runs.get(p), WorkloadRunStats::requestsPerSecond);
            t.row(labels.get(p), Integer.toString(rps.count()),
                    ratio(runs, p, WorkloadRunStats::requestsPerSecond),
                    costWithRange(serviceCosts(p)),
                    orDash(rps.spread(), ReportNumbers::percent),
                    ratio(runs, p, WorkloadRunStats::cpuPerRequest),
                    megabytes(runs, p), ratio(runs, p, WorkloadRunStats::peakRssKb));
        }
        return t.toString();
    }

    /** The median cost, and the lowest and highest of the repetitions when there are several. */
    static String costWithRange(Measurements costs) {
        String median = orDash(costs.median(), ReportNumbers::signedPercent);
        return costs.count() < 2 ? median : median + " (" + ReportNumbers.signedPercent(costs.min().getAsDouble())
                + " … " + ReportNumbers.signedPercent(costs.max().getAsDouble()) + ")";
    }

    private static String ratio(Map<Profiler, List<ChildRun>> runs, Profiler p,
                                Function<ChildRun, OptionalDouble> figure) {
        return orDash(pairedRatios(runs, p, figure).median(), ReportNumbers::ratio);
    }

    /** Per repetition, {@code figure(p's run) / figure(the run without a profiler)}. */
    private static Measurements pairedRatios(Map<Profiler, List<ChildRun>> runs, Profiler p,
                                             Function<ChildRun, OptionalDouble> figure) {
        List<ChildRun> mine = runs.get(p);
        List<ChildRun> baseline = runs.get(Profiler.NONE);
        Measurements ratios = new Measurements();
        for (int rep = 0; rep < Math.min(mine.size(), baseline.size()); rep++) {
            ChildRun a = mine.get(rep);
            ChildRun b = baseline.get(rep);
            if (a.succeeded() && b.succeeded()) {
                ReportNumbers.divide(figure.apply(a), figure.apply(b)).ifPresent(ratios::add);
            }
        }
        return ratios;
    }

    private static String megabytes(Map<Profiler, List<ChildRun>> runs, Profiler p) {
        return orDash(WorkloadRunStats.measure(runs.get(p), WorkloadRunStats::peakRssKb).median(),
                kb -> ReportNumbers.number(kb / 1024) + " MB");
    }
}
