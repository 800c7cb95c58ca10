package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The 1 ms study's tables: per workload, each profiler's cost as in the overhead tables, the samples in its
 * profiles, and for mixflame the samples its {@code # note:} line says were lost or dropped.
 */
final class FineIntervalSection {
    private final FineIntervalStudy study;
    private final Map<Profiler, String> labels;
    /** Per workload and profiler, the samples in each successful run's profile. */
    private final Map<String, Map<Profiler, Measurements>> samples = new HashMap<>();
    /** Per workload, mixflame's counts over all its runs, when its notes had them. */
    private final Map<String, SampleLoss> loss = new HashMap<>();

    FineIntervalSection(WorkloadRunner runner, FineIntervalStudy study, Map<Profiler, String> labels)
            throws IOException {
        this.study = study;
        this.labels = labels;
        for (Map.Entry<String, PairedRuns> e : study.runs().entrySet()) {
            Map<Profiler, Measurements> perProfiler = new HashMap<>();
            for (Profiler p : FineIntervalStudy.profilers()) {
                Measurements m = new Measurements();
                for (ChildRun r : e.getValue().of(p)) {
                    CollapsedProfile profile = r.succeeded() ? runner.profile(r) : null;
                    if (profile == null) {
                        continue;
                    }
                    m.add(profile.total());
                    if (p == Profiler.MIXFLAME) {
                        SampleLoss.fromNotes(profile.notes()).ifPresent(l -> loss.merge(e.getKey(), l, SampleLoss::plus));
                    }
                }
                perProfiler.put(p, m);
            }
            samples.put(e.getKey(), perProfiler);
        }
    }

    /** mixflame's samples, lost and dropped over all runs of the workload, or empty when its notes had none. */
    Optional<SampleLoss> mixflameLoss(String workload) {
        return Optional.ofNullable(loss.get(workload));
    }

    /** How much longer the workload's fixed work took at 1 ms than without a profiler, per repetition. */
    Measurements costs(FixedWork work, Profiler p) {
        return OverheadSection.workCosts(work, study.runs().get(work.workload()), p);
    }

    /** The workload's table. */
    String table(FixedWork work) {
        PairedRuns runs = study.runs().get(work.workload());
        MarkdownTable t = new MarkdownTable("profiler", "runs", "work time ratio", "cost (lowest … highest)",
                "process CPU", "process CPU ratio", "peak RSS", "samples per run", "lost", "dropped",
                "lost or dropped");
        for (Profiler p : FineIntervalStudy.profilers()) {
            Measurements time = runs.values(p, work::workMillis);
            Optional<SampleLoss> l = p == Profiler.MIXFLAME ? mixflameLoss(work.workload()) : Optional.empty();
            t.row(labels.get(p), Integer.toString(time.count()),
                    OverheadSection.ratio(runs, p, work::workMillis),
                    OverheadSection.costWithRange(costs(work, p)),
                    OverheadSection.processCpu(runs, p),
                    OverheadSection.ratio(runs, p, WorkloadRunStats::processCpuMillis),
                    OverheadSection.peakRss(runs, p),
                    p == Profiler.NONE ? "—" : orDash(samples.get(work.workload()).get(p).median(),
                            ReportNumbers::number),
                    l.map(x -> Long.toString(x.lost())).orElse("—"),
                    l.map(x -> Long.toString(x.dropped())).orElse("—"),
                    l.map(x -> ReportNumbers.finePercent(x.missedShare())).orElse("—"));
        }
        return t.toString();
    }

    /** How often each workload ran under each profiler. */
    int repetitions() {
        return study.repetitions();
    }

    /** The workloads, in the order they ran. */
    List<FixedWork> works() {
        return study.works();
    }
}
