package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The overhead tables. Each ratio is the median over repetitions of a run's figure divided by the figure of the
 * run without a profiler in the same repetition ({@link PairedRuns}).
 */
final class OverheadSection {
    private final OverheadStudy study;
    private final Map<Profiler, String> labels;

    OverheadSection(OverheadStudy study, Map<Profiler, String> labels) {
        this.study = study;
        this.labels = labels;
    }

    /** The runs the tables are made of. */
    OverheadStudy study() {
        return study;
    }

    /** How much longer the fixed CPU work took than without a profiler, as a fraction, per repetition. */
    Measurements cpuCosts(Profiler p) {
        return workCosts(study.cpuWork(), study.cpu(), p);
    }

    /** The same for the saturation workload's fixed work. */
    Measurements saturateCosts(Profiler p) {
        return workCosts(study.saturateWork(), study.saturate(), p);
    }

    /** How much less throughput the service had than without a profiler, as a fraction, per repetition. */
    Measurements serviceCosts(Profiler p) {
        Measurements costs = new Measurements();
        study.service().ratios(p, WorkloadRunStats::requestsPerSecond).forEach(r -> costs.add(1 - r));
        return costs;
    }

    /** (max − min) / median of the work time of the runs without a profiler: the noise a cost is read against. */
    OptionalDouble cpuBaselineSpread() {
        return study.cpu().values(Profiler.NONE, study.cpuWork()::workMillis).spread();
    }

    /** The same for the saturation workload. */
    OptionalDouble saturateBaselineSpread() {
        return study.saturate().values(Profiler.NONE, study.saturateWork()::workMillis).spread();
    }

    /** The busy threads of the saturate runs without a profiler (one per core of the machine they ran on). */
    OptionalDouble saturateThreads() {
        return study.saturate().values(Profiler.NONE, r -> WorkloadOutput.busyThreads(r.stdout())).median();
    }

    /** The same for the service's throughput. */
    OptionalDouble serviceBaselineSpread() {
        return study.service().values(Profiler.NONE, WorkloadRunStats::requestsPerSecond).spread();
    }

    String cpuTable() {
        return fixedWorkTable(study.cpuWork(), study.cpu());
    }

    String saturateTable() {
        return fixedWorkTable(study.saturateWork(), study.saturate());
    }

    String serviceTable() {
        MarkdownTable t = new MarkdownTable("profiler", "runs", "requests/s ratio", "cost (lowest … highest)",
                "spread of runs", "process CPU", "process CPU per request ratio", "peak RSS", "peak RSS ratio");
        PairedRuns runs = study.service();
        for (Profiler p : Profiler.values()) {
            Measurements rps = runs.values(p, WorkloadRunStats::requestsPerSecond);
            t.row(labels.get(p), Integer.toString(rps.count()),
                    ratio(runs, p, WorkloadRunStats::requestsPerSecond),
                    costWithRange(serviceCosts(p)),
                    orDash(rps.spread(), ReportNumbers::percent),
                    processCpu(runs, p),
                    ratio(runs, p, WorkloadRunStats::cpuPerRequest),
                    peakRss(runs, p), ratio(runs, p, WorkloadRunStats::peakRssKb));
        }
        return t.toString();
    }

    /** How much longer a workload's fixed work took than without a profiler, as a fraction, per repetition. */
    static Measurements workCosts(FixedWork work, PairedRuns runs, Profiler p) {
        Measurements costs = new Measurements();
        runs.ratios(p, work::workMillis).forEach(r -> costs.add(r - 1));
        return costs;
    }

    /** The median over repetitions of the process CPU time above the run without a profiler, in ms. */
    static OptionalDouble extraCpuMillis(PairedRuns runs, Profiler p) {
        return runs.differences(p, WorkloadRunStats::processCpuMillis).median();
    }

    /** The median peak RSS of the profiler's runs, in kB. */
    static OptionalDouble peakRssKb(PairedRuns runs, Profiler p) {
        return runs.values(p, WorkloadRunStats::peakRssKb).median();
    }

    /** The median cost, and the lowest and highest of the repetitions when there are several. */
    static String costWithRange(Measurements costs) {
        String median = orDash(costs.median(), ReportNumbers::signedPercent);
        return costs.count() < 2 ? median : median + " (" + ReportNumbers.signedPercent(costs.min().getAsDouble())
                + " … " + ReportNumbers.signedPercent(costs.max().getAsDouble()) + ")";
    }

    /** The median of the paired ratios of a figure. */
    static String ratio(PairedRuns runs, Profiler p, Function<ChildRun, OptionalDouble> figure) {
        return orDash(runs.ratios(p, figure).median(), ReportNumbers::ratio);
    }

    /** The median process CPU time of the profiler's runs, in seconds. */
    static String processCpu(PairedRuns runs, Profiler p) {
        return orDash(runs.values(p, WorkloadRunStats::processCpuMillis).median(), ms -> ReportNumbers.seconds(ms / 1000));
    }

    /** The median peak RSS of the profiler's runs, in MB. */
    static String peakRss(PairedRuns runs, Profiler p) {
        return orDash(peakRssKb(runs, p), ReportNumbers::megabytesOfKb);
    }

    /**
     * Work time and its cost, then the whole process: wall (start-up and the profile's writing included), CPU and
     * peak RSS.
     */
    private String fixedWorkTable(FixedWork work, PairedRuns runs) {
        MarkdownTable t = new MarkdownTable("profiler", "runs", "work time ratio", "cost (lowest … highest)",
                "spread of runs", "process wall ratio", "process CPU", "process CPU ratio", "peak RSS",
                "peak RSS ratio", "live heap at exit");
        for (Profiler p : Profiler.values()) {
            Measurements time = runs.values(p, work::workMillis);
            t.row(labels.get(p), Integer.toString(time.count()),
                    ratio(runs, p, work::workMillis),
                    costWithRange(workCosts(work, runs, p)),
                    orDash(time.spread(), ReportNumbers::percent),
                    ratio(runs, p, WorkloadRunStats::wallNanos),
                    processCpu(runs, p), ratio(runs, p, WorkloadRunStats::processCpuMillis),
                    peakRss(runs, p), ratio(runs, p, WorkloadRunStats::peakRssKb),
                    orDash(runs.values(p, WorkloadRunStats::liveHeapKb).median(), ReportNumbers::tenthsOfMegabyteOfKb));
        }
        return t.toString();
    }
}
