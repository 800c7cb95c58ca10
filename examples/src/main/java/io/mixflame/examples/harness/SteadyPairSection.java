package io.mixflame.examples.harness;

import java.util.OptionalDouble;

/**
 * The steady-state pair's report: each round's rates and ratio, then the geometric mean against the target of
 * 0.99 of async-profiler's throughput.
 */
final class SteadyPairSection {
    /** mixflame's throughput in the steady state at least this share of async-profiler's. */
    static final double TARGET = 0.99;

    private final SteadyPairStudy study;

    SteadyPairSection(SteadyPairStudy study) {
        this.study = study;
    }

    String markdown() {
        MarkdownTable t = new MarkdownTable("round", "first", "async-profiler: rounds/s", "mixflame: rounds/s",
                "mixflame / async-profiler");
        int round = 0;
        for (ChildRun[] pair : study.pairs()) {
            OptionalDouble a = study.rate(pair[0]);
            OptionalDouble m = study.rate(pair[1]);
            t.row(Integer.toString(++round), round % 2 == 1 ? "async-profiler" : "mixflame", rate(a), rate(m),
                    a.isPresent() && m.isPresent() ? ReportNumbers.ratio(m.getAsDouble() / a.getAsDouble()) : "—");
        }
        double mean = study.geometricMean();
        String verdict = Double.isNaN(mean) ? "no pair ran" : ReportNumbers.ratio(mean) + " ("
                + (mean >= TARGET ? "meets" : "misses") + " the target of " + TARGET + ")";
        return "### The steady-state pair: `" + String.join(" ", study.steady().command()) + "`\n\n"
                + "Rounds per second over the windows after the first " + study.steady().skipSeconds()
                + " s, two busy threads on the cores, async-profiler and mixflame in pairs whose order alternates.\n\n"
                + t + "\nGeometric mean of the ratios: " + verdict + ".\n";
    }

    private static String rate(OptionalDouble r) {
        return r.isPresent() ? ReportNumbers.number(r.getAsDouble()) : "—";
    }
}
