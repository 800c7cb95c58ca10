package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.util.Locale;
import java.util.OptionalDouble;

/** mixflame's figures against its targets, saying by how much it falls short where it does. */
final class TargetsSection {
    private static final double MAX_COST = 0.01;
    private static final double MAX_DEVIATION_POINTS = 2;
    private static final double MAX_P50_MICROS = 5;
    private static final double MAX_P99_MICROS = 20;
    private static final double MAX_WALL_CORE_SHARE = 0.02;

    private TargetsSection() {
    }

    static String table(OverheadSection overhead, AccuracySection accuracy, WallSection wall, MixflameCostSection cost) {
        MarkdownTable t = new MarkdownTable("target", "mixflame", "async-profiler", "verdict");
        costRow(t, "`cpu`: cost at 10 ms ≤ async-profiler's and ≤ 1%", overhead.cpuCosts(Profiler.MIXFLAME),
                overhead.cpuCosts(Profiler.ASYNC_PROFILER));
        costRow(t, "`service`: throughput cost at 10 ms ≤ async-profiler's and ≤ 1%",
                overhead.serviceCosts(Profiler.MIXFLAME), overhead.serviceCosts(Profiler.ASYNC_PROFILER));
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
        return t.toString();
    }

    /**
     * The limit is 1%, or async-profiler's median cost when lower; a negative measured cost is noise and counts
     * as 0. When some repetitions of mixflame came in under the limit, the verdict says so: the shortfall is then
     * not clear of the noise.
     */
    private static void costRow(MarkdownTable t, String target, Measurements mixflame, Measurements async) {
        OptionalDouble asyncMedian = async.median();
        double limit = asyncMedian.isPresent() ? Math.max(0, Math.min(MAX_COST, asyncMedian.getAsDouble())) : MAX_COST;
        String verdict = verdict(mixflame.median(), limit, c -> ReportNumbers.points(100 * (c - limit)) + " (limit "
                + ReportNumbers.percent(limit) + ")");
        if (verdict.startsWith("short") && mixflame.min().getAsDouble() <= limit) {
            verdict += "; not clear of the noise: some repetitions were within the limit";
        }
        t.row(target, OverheadSection.costWithRange(mixflame), OverheadSection.costWithRange(async), verdict);
    }

    private static void microsRow(MarkdownTable t, String target, OptionalDouble micros, double limit) {
        t.row(target, orDash(micros, m -> String.format(Locale.ROOT, "%.1f µs", m)), "—",
                micros.isEmpty() ? "not reported by this engine"
                        : verdict(micros, limit, m -> String.format(Locale.ROOT, "%.1f µs (%.0f× the target)", m - limit,
                        m / limit)));
    }

    private static String verdict(OptionalDouble value, double limit, java.util.function.DoubleFunction<String> by) {
        if (value.isEmpty()) {
            return "not measured";
        }
        return value.getAsDouble() <= limit ? "met" : "short by " + by.apply(value.getAsDouble());
    }
}
