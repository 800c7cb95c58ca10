package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;
import java.util.function.Function;

/**
 * The tables of the cost study: per study and profiler the work's time or throughput against none's and
 * async-profiler's in the same repetition, peak RSS, live heap at exit and the JIT's compilations beyond none's;
 * then mixflame's figures against the cost targets.
 */
final class CostSection {
    private static final double SHORT_JOB_TARGET = 0.05;
    private static final double SATURATED_TARGET = 0.03;
    private static final double STEADY_TARGET = 0.01;
    private static final double RSS_TARGET_MB = 32;
    private static final double LIVE_HEAP_TARGET_MB = 2;
    private static final double COMPILATIONS_TARGET = 150;
    private static final double COMPILE_SECONDS_TARGET = 0.5;

    private final CostStudy study;
    private final Map<Profiler, String> labels;

    CostSection(CostStudy study, Map<Profiler, String> labels) {
        this.study = study;
        this.labels = labels;
    }

    /** The section's markdown: what was run, the three tables, the targets. */
    String markdown(int repetitions) {
        CostStudy.SteadyState steady = study.steady();
        return "### What the service pays: short job, saturated work, steady state\n\n"
                + "Each repetition (" + repetitions + " in all) runs none, async-profiler, JFR and mixflame in turn on "
                + "each workload, CPU every 10 ms. Work times and throughputs are medians over the repetitions; the "
                + "ratios are medians of each run's figure over the figure of the run without a profiler, or of "
                + "async-profiler's run, in the same repetition. Compilations and compile time are `-XX:+CITime`'s at "
                + "exit (C1 and C2, OSR included) beyond the run without a profiler in the same repetition; live heap "
                + "at exit is what a full collection left.\n\n"
                + "#### Short job: `" + study.shortJob().label() + " " + study.shortJob().rounds() + "` (about "
                + study.shortJob().seconds() + " s of work on one thread without a profiler)\n\n"
                + fixedWorkTable(study.shortRuns(), study.shortJob()) + '\n'
                + "#### Saturated: `" + study.saturatedWork().label() + " " + study.saturatedWork().rounds()
                + "` (every core busy, about " + study.saturatedWork().seconds() + " s of work)\n\n"
                + fixedWorkTable(study.saturatedRuns(), study.saturatedWork()) + '\n'
                + "#### Steady state: `" + String.join(" ", steady.command()) + "` (rounds per second over the "
                + "windows after the first " + steady.skipSeconds() + " s)\n\n"
                + steadyTable() + '\n'
                + "#### Against the cost targets\n\n" + targets() + '\n';
    }

    private String fixedWorkTable(PairedRuns runs, FixedWork work) {
        return table(runs, "work time", work::workMillis, ms -> ReportNumbers.number(ms) + " ms");
    }

    private String steadyTable() {
        return table(study.steadyRuns(), "rounds/s", this::steadyRoundsPerSecond, ReportNumbers::number);
    }

    private OptionalDouble steadyRoundsPerSecond(ChildRun run) {
        return WorkloadOutput.steadyRoundsPerSecond(run.stdout(), study.steady().skipSeconds());
    }

    private String table(PairedRuns runs, String figureName, Function<ChildRun, OptionalDouble> figure,
                         DoubleFunction<String> format) {
        MarkdownTable t = new MarkdownTable("profiler", "runs", figureName, "vs none", "vs async-profiler", "peak RSS",
                "live heap at exit", "JIT compilations (beyond none)", "compile time (beyond none)");
        for (Profiler p : Profiler.values()) {
            boolean profiled = p != Profiler.NONE;
            t.row(labels.getOrDefault(p, p.label()), Integer.toString(runs.values(p, figure).count()),
                    orDash(runs.values(p, figure).median(), format),
                    profiled ? orDash(runs.ratios(p, figure).median(), ReportNumbers::ratio) : "",
                    profiled && p != Profiler.ASYNC_PROFILER
                            ? orDash(runs.ratios(p, Profiler.ASYNC_PROFILER, figure).median(), ReportNumbers::ratio) : "",
                    orDash(runs.values(p, WorkloadRunStats::peakRssKb).median(), ReportNumbers::megabytesOfKb),
                    orDash(runs.values(p, WorkloadRunStats::liveHeapKb).median(), ReportNumbers::tenthsOfMegabyteOfKb),
                    orDash(runs.values(p, CostSection::compilations).median(), ReportNumbers::number)
                            + (profiled ? " (" + orDash(runs.differences(p, CostSection::compilations).median(),
                            CostSection::signedNumber) + ")" : ""),
                    orDash(runs.values(p, CostSection::compileSeconds).median(), CostSection::twoDecimalSeconds)
                            + (profiled ? " (" + orDash(runs.differences(p, CostSection::compileSeconds).median(),
                            s -> (s >= 0 ? "+" : "") + twoDecimalSeconds(s)) + ")" : ""));
        }
        return t.toString();
    }

    private String targets() {
        MarkdownTable t = new MarkdownTable("target (mixflame)", "measured", "met");
        OptionalDouble shortRatio = study.shortRuns().ratios(Profiler.MIXFLAME, Profiler.ASYNC_PROFILER,
                study.shortJob()::workMillis).median();
        slower(t, "short job: work time within 5% of async-profiler's", shortRatio, SHORT_JOB_TARGET);
        OptionalDouble saturatedRatio = study.saturatedRuns().ratios(Profiler.MIXFLAME, Profiler.ASYNC_PROFILER,
                study.saturatedWork()::workMillis).median();
        slower(t, "saturated: work time within 3% of async-profiler's", saturatedRatio, SATURATED_TARGET);
        OptionalDouble steadyRatio = study.steadyRuns().ratios(Profiler.MIXFLAME, Profiler.ASYNC_PROFILER,
                this::steadyRoundsPerSecond).median();
        t.row("steady state: throughput within 1% of async-profiler's", orDash(steadyRatio, r -> ReportNumbers.ratio(r)
                + " (" + ReportNumbers.signedPercent(r - 1) + ")"), steadyRatio.isEmpty() ? "—"
                : steadyRatio.getAsDouble() >= 1 - STEADY_TARGET ? "yes" : "no");
        OptionalDouble rss = largest(runs -> runs.differences(Profiler.MIXFLAME, Profiler.ASYNC_PROFILER,
                WorkloadRunStats::peakRssKb).median());
        atMost(t, "peak RSS at most 32 MB above async-profiler's, every study (largest)",
                scaled(rss, 1.0 / 1024), RSS_TARGET_MB, mb -> String.format(Locale.ROOT, "%+.0f MB", mb));
        OptionalDouble heap = largest(runs -> runs.differences(Profiler.MIXFLAME, WorkloadRunStats::liveHeapKb)
                .median());
        atMost(t, "live heap kept at most 2 MB (beyond none's, largest over the studies)", scaled(heap, 1.0 / 1024),
                LIVE_HEAP_TARGET_MB, mb -> String.format(Locale.ROOT, "%+.1f MB", mb));
        atMost(t, "saturated: at most 150 compilations beyond none's",
                study.saturatedRuns().differences(Profiler.MIXFLAME, CostSection::compilations).median(),
                COMPILATIONS_TARGET, CostSection::signedNumber);
        atMost(t, "saturated: at most 0.5 s of compile time beyond none's",
                study.saturatedRuns().differences(Profiler.MIXFLAME, CostSection::compileSeconds).median(),
                COMPILE_SECONDS_TARGET, s -> (s >= 0 ? "+" : "") + twoDecimalSeconds(s));
        return t.toString();
    }

    /** A row for a ratio to async-profiler's where higher is worse: met when at most {@code 1 + allowed}. */
    private static void slower(MarkdownTable t, String target, OptionalDouble ratio, double allowed) {
        t.row(target, orDash(ratio, r -> ReportNumbers.ratio(r) + " (" + ReportNumbers.signedPercent(r - 1) + ")"),
                verdict(ratio, 1 + allowed));
    }

    private static void atMost(MarkdownTable t, String target, OptionalDouble value, double limit,
                               DoubleFunction<String> format) {
        t.row(target, orDash(value, format), verdict(value, limit));
    }

    private static String verdict(OptionalDouble value, double limit) {
        return value.isEmpty() ? "—" : value.getAsDouble() <= limit ? "yes" : "no";
    }

    /** The largest of a figure over the three studies, empty when no study has it. */
    private OptionalDouble largest(Function<PairedRuns, OptionalDouble> figure) {
        OptionalDouble largest = OptionalDouble.empty();
        for (PairedRuns runs : new PairedRuns[] {study.shortRuns(), study.saturatedRuns(), study.steadyRuns()}) {
            OptionalDouble v = figure.apply(runs);
            if (v.isPresent() && (largest.isEmpty() || v.getAsDouble() > largest.getAsDouble())) {
                largest = v;
            }
        }
        return largest;
    }

    private static OptionalDouble scaled(OptionalDouble v, double factor) {
        return v.isPresent() ? OptionalDouble.of(v.getAsDouble() * factor) : v;
    }

    private static OptionalDouble compilations(ChildRun run) {
        return WorkloadOutput.jitCompilations(run.stdout());
    }

    private static OptionalDouble compileSeconds(ChildRun run) {
        return WorkloadOutput.jitSeconds(run.stdout());
    }

    private static String signedNumber(double n) {
        return String.format(Locale.ROOT, "%+.0f", n);
    }

    private static String twoDecimalSeconds(double s) {
        return String.format(Locale.ROOT, "%.2f s", s);
    }
}
