package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import io.mixflame.examples.harness.LabelsStudy.Setting;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The labels study's tables: per setting the service's requests per second and, for mixflame's, how many samples
 * carry an {@code [endpoint=…]} frame (none without {@code labels}, most of the workers' with it: the check that the
 * labels were on); then the cost of {@code labels} against its target of 1% of the throughput.
 */
final class LabelsSection {
    private static final String ENDPOINT = "[endpoint=";
    /** The bound on what {@code labels} may cost the service's throughput. */
    private static final double MAX_COST = 0.01;

    private final LabelsStudy study;
    private final Map<Profiler, String> labels;
    private final Map<Setting, Samples> samples = new EnumMap<>(Setting.class);

    /** Samples pooled over one setting's profiles. */
    private static final class Samples {
        long total;
        long labelled;
        /** Samples per endpoint label frame, {@code [endpoint=/cpu]} and the like. */
        final Map<String, Long> byEndpoint = new TreeMap<>();
    }

    LabelsSection(WorkloadRunner runner, LabelsStudy study, Map<Profiler, String> labels) throws IOException {
        this.study = study;
        this.labels = labels;
        for (Setting s : Setting.values()) {
            Samples pooled = new Samples();
            samples.put(s, pooled);
            for (ChildRun run : study.of(s)) {
                CollapsedProfile profile = run.succeeded() ? runner.profile(run) : null;
                if (profile != null) {
                    count(profile, pooled);
                }
            }
        }
    }

    private static void count(CollapsedProfile profile, Samples pooled) {
        for (CollapsedProfile.Stack stack : profile.stacks()) {
            pooled.total += stack.count();
            String endpoint = stack.frames().stream().filter(f -> f.startsWith(ENDPOINT)).findFirst().orElse(null);
            if (endpoint != null) {
                pooled.labelled += stack.count();
                pooled.byEndpoint.merge(endpoint, stack.count(), Long::sum);
            }
        }
    }

    /** Per repetition, the labelled run's requests per second over those of the run without labels. */
    private Measurements labelsRatios() {
        return ratios(Setting.MIXFLAME_LABELS, Setting.MIXFLAME);
    }

    /** The section: what ran, the table, the endpoints seen, and the target. */
    String markdown(int repetitions) {
        MarkdownTable t = new MarkdownTable("run", "runs", "requests/s (median)", "vs none", "vs mixflame",
                "samples with `[endpoint=…]`");
        for (Setting s : Setting.values()) {
            Measurements rps = values(s);
            boolean profiled = s != Setting.NONE;
            t.row(name(s), Integer.toString(rps.count()), orDash(rps.median(), ReportNumbers::number),
                    profiled ? ratioWithRange(ratios(s, Setting.NONE)) : "",
                    s == Setting.MIXFLAME_LABELS ? ratioWithRange(labelsRatios()) : "",
                    profiled ? shareOf(samples.get(s)) : "");
        }
        Measurements ratios = labelsRatios();
        OptionalDouble ratio = ratios.median();
        boolean met = ratio.isPresent() && ratio.getAsDouble() >= 1 - MAX_COST;
        MarkdownTable target = new MarkdownTable("target", "measured", "met");
        target.row("`labels` costs the service at most 1% of its requests/s (median ratio ≥ 0.990)",
                orDash(ratio, ReportNumbers::ratio), ratio.isPresent() ? (met ? "yes" : "no") : "—");
        return "### `service --load --seconds " + study.seconds() + " --threads " + study.clients()
                + "` with and without `labels`\n\n"
                + "None, mixflame (`event=cpu,interval=10ms`) and mixflame with `labels` added in turn, " + repetitions
                + (repetitions == 1 ? " time" : " times") + ", the two mixflame runs swapping places every other "
                + "repetition. With `labels` the agent weaves the service's `HttpServer` handlers, and each request "
                + "(`/cpu`, `/sleep`, `/lock` in turn, server and clients in one process on 127.0.0.1) enters and "
                + "leaves its `endpoint` label on its worker thread. Requests per second after the load generator's "
                + "warm-up, the median over the runs; ratios are medians over the repetitions of a run's figure over "
                + "that of the other run in the same repetition (lowest … highest). The samples column is of the "
                + "samples in the runs' profiles pooled: the load generator's client threads are sampled too and "
                + "carry no endpoint. Spread of the runs without a profiler ((max − min) / median): "
                + orDash(values(Setting.NONE).spread(), ReportNumbers::percent) + "; of mixflame's without labels: "
                + orDash(values(Setting.MIXFLAME).spread(), ReportNumbers::percent) + ".\n\n" + t + '\n'
                + "Samples of the runs with `labels` by endpoint: " + byEndpoint() + ".\n\n" + target + '\n';
    }

    private String name(Setting s) {
        return switch (s) {
            case NONE -> labels.getOrDefault(Profiler.NONE, "none");
            case MIXFLAME -> labels.getOrDefault(Profiler.MIXFLAME, "mixflame");
            case MIXFLAME_LABELS -> labels.getOrDefault(Profiler.MIXFLAME, "mixflame") + " + `labels`";
        };
    }

    private Measurements values(Setting s) {
        return WorkloadRunStats.measure(study.of(s), WorkloadRunStats::requestsPerSecond);
    }

    /** Per repetition, {@code s}'s requests per second over {@code baseline}'s, both runs having succeeded. */
    private Measurements ratios(Setting s, Setting baseline) {
        List<ChildRun> mine = study.of(s);
        List<ChildRun> theirs = study.of(baseline);
        Measurements result = new Measurements();
        for (int rep = 0; rep < Math.min(mine.size(), theirs.size()); rep++) {
            ChildRun a = mine.get(rep);
            ChildRun b = theirs.get(rep);
            if (a.succeeded() && b.succeeded()) {
                ReportNumbers.divide(WorkloadRunStats.requestsPerSecond(a), WorkloadRunStats.requestsPerSecond(b))
                        .ifPresent(result::add);
            }
        }
        return result;
    }

    private static String ratioWithRange(Measurements ratios) {
        String median = orDash(ratios.median(), ReportNumbers::ratio);
        return ratios.count() < 2 ? median : median + " (" + orDash(ratios.min(), ReportNumbers::ratio) + " … "
                + orDash(ratios.max(), ReportNumbers::ratio) + ")";
    }

    private static OptionalDouble share(Samples s) {
        return s.total == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) s.labelled / s.total);
    }

    private static String shareOf(Samples s) {
        return orDash(share(s), ReportNumbers::percent) + " of " + s.total;
    }

    private String byEndpoint() {
        Samples s = samples.get(Setting.MIXFLAME_LABELS);
        if (s.total == 0) {
            return "no samples";
        }
        StringBuilder b = new StringBuilder();
        s.byEndpoint.forEach((frame, count) -> b.append('`').append(frame).append("` ")
                .append(ReportNumbers.percent((double) count / s.total)).append(", "));
        return b.append("none ").append(ReportNumbers.percent((double) (s.total - s.labelled) / s.total)).toString();
    }
}
