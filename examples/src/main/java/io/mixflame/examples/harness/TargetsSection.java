package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;

/** mixflame's figures against its targets, saying by how much it falls short where it does. */
final class TargetsSection {
    private static final double MAX_COST = 0.01;
    private static final double MAX_DEVIATION_POINTS = 2;
    private static final double MAX_P50_MICROS = 5;
    private static final double MAX_P99_MICROS = 20;
    /** Per sample after a 10 s warm-up. */
    private static final double MAX_WARM_P99_MICROS = 50;
    private static final double MAX_WALL_CORE_SHARE = 0.02;
    /** A cost at most this far above async-profiler's. */
    private static final double MAX_COST_ABOVE_ASYNC = 0.01;
    /** Extra process CPU at most this many times async-profiler's. */
    private static final double MAX_EXTRA_CPU_TIMES_ASYNC = 2;
    /** Peak RSS at most this far above async-profiler's. */
    private static final double MAX_RSS_ABOVE_ASYNC_MB = 32;
    /** At 1 ms, under this share of the samples lost or dropped. */
    private static final double MAX_MISSED_SHARE = 0.01;

    private TargetsSection() {
    }

    static String table(OverheadSection overhead, AccuracySection accuracy, WallSection wall, MixflameCostSection cost,
                        FineIntervalSection fine) {
        MarkdownTable t = new MarkdownTable("target", "mixflame", "async-profiler", "verdict");
        costRow(t, "`cpu`: cost at 10 ms ≤ async-profiler's and ≤ 1%", overhead.cpuCosts(Profiler.MIXFLAME),
                overhead.cpuCosts(Profiler.ASYNC_PROFILER), async -> Math.min(MAX_COST, async), MAX_COST);
        costRow(t, "`service`: throughput cost at 10 ms ≤ async-profiler's and ≤ 1%",
                overhead.serviceCosts(Profiler.MIXFLAME), overhead.serviceCosts(Profiler.ASYNC_PROFILER),
                async -> Math.min(MAX_COST, async), MAX_COST);
        OptionalDouble dev = accuracy.maxDeviationPoints(Profiler.MIXFLAME);
        t.row("`cpu`: shares within 2 pp of 50/30/20", orDash(dev, ReportNumbers::points),
                orDash(accuracy.maxDeviationPoints(Profiler.ASYNC_PROFILER), ReportNumbers::points),
                verdict(dev, MAX_DEVIATION_POINTS, d -> ReportNumbers.points(d - MAX_DEVIATION_POINTS)));
        OptionalDouble wallCost = wall.extraCoreShare(Profiler.MIXFLAME);
        t.row("`idle`: wall clock, 500 idle threads at 20 ms ≤ 2% of one core", orDash(wallCost, WallSection::percentOfCore),
                orDash(wall.extraCoreShare(Profiler.ASYNC_PROFILER), WallSection::percentOfCore),
                verdict(wallCost, MAX_WALL_CORE_SHARE, c -> String.format(Locale.ROOT, "%.2f pp", 100 * (c - MAX_WALL_CORE_SHARE))));
        microsRow(t, "sampler ≤ 5 µs per sample (p50)", cost.perSampleP50Micros(), MAX_P50_MICROS);
        microsRow(t, "sampler ≤ 20 µs per sample (p99)", cost.perSampleP99Micros(), MAX_P99_MICROS);
        String noLongRun = "not measured: no run here lasts past the engine's 10 s warm-up (BENCHMARKS.md measures it by hand)";
        microsRow(t, "after a 10 s warm-up: ≤ 5 µs per sample (p50)", cost.warmP50Micros(), MAX_P50_MICROS, noLongRun);
        microsRow(t, "after a 10 s warm-up: ≤ 50 µs per sample (p99)", cost.warmP99Micros(), MAX_WARM_P99_MICROS,
                noLongRun);
        OverheadStudy study = overhead.study();
        costRow(t, "`cpu --rounds`: cost at 10 ms within 1 pp of async-profiler's", overhead.cpuCosts(Profiler.MIXFLAME),
                overhead.cpuCosts(Profiler.ASYNC_PROFILER), async -> async + MAX_COST_ABOVE_ASYNC, Double.NaN);
        costRow(t, "`saturate --rounds`: cost at 10 ms within 1 pp of async-profiler's",
                overhead.saturateCosts(Profiler.MIXFLAME), overhead.saturateCosts(Profiler.ASYNC_PROFILER),
                async -> async + MAX_COST_ABOVE_ASYNC, Double.NaN);
        extraCpuRow(t, "`cpu --rounds`", study.cpu());
        extraCpuRow(t, "`saturate --rounds`", study.saturate());
        rssRow(t, "`cpu --rounds`", study.cpu());
        rssRow(t, "`saturate --rounds`", study.saturate());
        for (FixedWork w : fine.works()) {
            missedRow(t, w.workload(), fine.mixflameLoss(w.workload()));
        }
        return t.toString();
    }

    /**
     * The limit follows from async-profiler's median cost ({@code fromAsync}), or is {@code withoutAsync} when
     * there is none (NaN: not measured); a negative measured cost is noise and counts as 0. When some repetitions
     * of mixflame came in under the limit, the verdict says so: the shortfall is then not clear of the noise.
     */
    private static void costRow(MarkdownTable t, String target, Measurements mixflame, Measurements async,
                                DoubleUnaryOperator fromAsync, double withoutAsync) {
        OptionalDouble asyncMedian = async.median();
        double limit = asyncMedian.isPresent() ? Math.max(0, fromAsync.applyAsDouble(Math.max(0,
                asyncMedian.getAsDouble()))) : withoutAsync;
        String verdict = Double.isNaN(limit) ? "not measured" : verdict(mixflame.median(), limit,
                c -> ReportNumbers.points(100 * (c - limit)) + " (limit " + ReportNumbers.percent(limit) + ")");
        if (verdict.startsWith("short") && mixflame.min().getAsDouble() <= limit) {
            verdict += "; not clear of the noise: some repetitions were within the limit";
        }
        t.row(target, OverheadSection.costWithRange(mixflame), OverheadSection.costWithRange(async), verdict);
    }

    /** Process CPU above the run without a profiler, at most twice async-profiler's (whose negative is noise: 0). */
    private static void extraCpuRow(MarkdownTable t, String workload, PairedRuns runs) {
        OptionalDouble mixflame = seconds(OverheadSection.extraCpuMillis(runs, Profiler.MIXFLAME));
        OptionalDouble async = seconds(OverheadSection.extraCpuMillis(runs, Profiler.ASYNC_PROFILER));
        String verdict = "not measured";
        if (async.isPresent()) {
            double limit = MAX_EXTRA_CPU_TIMES_ASYNC * Math.max(0, async.getAsDouble());
            verdict = verdict(mixflame, limit, s -> String.format(Locale.ROOT, "%.1f s (limit %.1f s)", s - limit, limit));
        }
        t.row(workload + ": extra process CPU at 10 ms ≤ 2× async-profiler's", orDash(mixflame, ReportNumbers::seconds),
                orDash(async, ReportNumbers::seconds), verdict);
    }

    /** Peak RSS at most 32 MB above async-profiler's, medians of the runs. */
    private static void rssRow(MarkdownTable t, String workload, PairedRuns runs) {
        OptionalDouble mixflame = megabytes(OverheadSection.peakRssKb(runs, Profiler.MIXFLAME));
        OptionalDouble async = megabytes(OverheadSection.peakRssKb(runs, Profiler.ASYNC_PROFILER));
        String verdict = "not measured";
        if (async.isPresent()) {
            double limit = async.getAsDouble() + MAX_RSS_ABOVE_ASYNC_MB;
            verdict = verdict(mixflame, limit, mb -> String.format(Locale.ROOT, "%.0f MB (limit %.0f MB)", mb - limit,
                    limit));
        }
        t.row(workload + ": peak RSS at 10 ms ≤ async-profiler's + 32 MB", orDash(mixflame, ReportNumbers::megabytes),
                orDash(async, ReportNumbers::megabytes), verdict);
    }

    /** Under 1% of the samples lost or dropped at 1 ms, over all of mixflame's runs of the workload at 1 ms. */
    private static void missedRow(MarkdownTable t, String workload, Optional<SampleLoss> loss) {
        String verdict = loss.map(l -> l.missedShare() < MAX_MISSED_SHARE ? "met"
                : "short by " + ReportNumbers.points(100 * (l.missedShare() - MAX_MISSED_SHARE))).orElse("not reported");
        t.row("`" + workload + "` at 1 ms: under 1% of samples lost or dropped",
                loss.map(l -> ReportNumbers.finePercent(l.missedShare()) + " (" + (l.lost() + l.dropped()) + " of "
                        + (l.samples() + l.lost()) + ")").orElse("—"), "—", verdict);
    }

    private static void microsRow(MarkdownTable t, String target, OptionalDouble micros, double limit) {
        microsRow(t, target, micros, limit, "not reported by this engine");
    }

    private static void microsRow(MarkdownTable t, String target, OptionalDouble micros, double limit,
                                  String whenMissing) {
        t.row(target, orDash(micros, m -> String.format(Locale.ROOT, "%.1f µs", m)), "—",
                micros.isEmpty() ? whenMissing
                        : verdict(micros, limit, m -> String.format(Locale.ROOT, "%.1f µs (%.0f× the target)", m - limit,
                        m / limit)));
    }

    private static String verdict(OptionalDouble value, double limit, DoubleFunction<String> by) {
        if (value.isEmpty()) {
            return "not measured";
        }
        return value.getAsDouble() <= limit ? "met" : "short by " + by.apply(value.getAsDouble());
    }

    private static OptionalDouble seconds(OptionalDouble millis) {
        return millis.isPresent() ? OptionalDouble.of(millis.getAsDouble() / 1000) : millis;
    }

    private static OptionalDouble megabytes(OptionalDouble kb) {
        return kb.isPresent() ? OptionalDouble.of(kb.getAsDouble() / 1024) : kb;
    }
}
