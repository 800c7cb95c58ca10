package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * What the profiles say against the workloads' known truths: the {@code cpu} workload's 50/30/20 split and its
 * busy thread's sample count (its CPU time / 10 ms), pooled over all overhead runs; and whether the {@code mixed}
 * workload's stacks hold native code below Java frames.
 */
final class AccuracySection {
    private static final String[] METHODS = {"alpha", "beta", "gamma"};
    private static final double[] TRUTH = {0.50, 0.30, 0.20};
    private static final double INTERVAL_MILLIS = 10;

    private final Map<Profiler, String> labels;
    private final Map<Profiler, long[]> methodSamples = new EnumMap<>(Profiler.class);
    private final Map<Profiler, double[]> busySamples = new EnumMap<>(Profiler.class);
    private final Map<Profiler, MixedFigures> mixed = new EnumMap<>(Profiler.class);
    private final MixedStudy mixedStudy;

    /** Samples of the mixed workload's thread, and of them those with each stack shape. */
    private record MixedFigures(long samples, double expected, long nativeUnderJava, long javaNativeJava,
                                long qsortCallback) {
    }

    AccuracySection(WorkloadRunner runner, OverheadStudy overhead, MixedStudy mixedStudy, Map<Profiler, String> labels)
            throws IOException {
        this.labels = labels;
        this.mixedStudy = mixedStudy;
        for (Profiler p : Profiler.values()) {
            if (p == Profiler.NONE) {
                continue;
            }
            readCpu(runner, p, overhead.cpu().of(p));
            readMixed(runner, p, mixedStudy.runs().get(p));
        }
    }

    /** The largest distance of a share of alpha, beta or gamma from 50/30/20, in percentage points. */
    OptionalDouble maxDeviationPoints(Profiler p) {
        long[] n = methodSamples.get(p);
        long all = n[0] + n[1] + n[2];
        if (all == 0) {
            return OptionalDouble.empty();
        }
        double max = 0;
        for (int i = 0; i < 3; i++) {
            max = Math.max(max, Math.abs(100.0 * n[i] / all - 100 * TRUTH[i]));
        }
        return OptionalDouble.of(max);
    }

    String sharesTable() {
        MarkdownTable t = new MarkdownTable("profiler", "samples in alpha+beta+gamma", "alpha (50%)", "beta (30%)",
                "gamma (20%)", "largest deviation", "busy-thread samples / expected");
        for (Profiler p : methodSamples.keySet()) {
            long[] n = methodSamples.get(p);
            long all = n[0] + n[1] + n[2];
            double[] busy = busySamples.get(p);
            t.row(labels.get(p), Long.toString(all), share(n[0], all), share(n[1], all), share(n[2], all),
                    orDash(maxDeviationPoints(p), ReportNumbers::points),
                    orDash(ReportNumbers.divide(OptionalDouble.of(busy[0]), OptionalDouble.of(busy[1])),
                            ReportNumbers::ratio));
        }
        return t.toString();
    }

    /** The mixed runs' stack shapes, and every run's process CPU and peak RSS, the baseline's included. */
    String mixedTable() {
        MarkdownTable t = new MarkdownTable("profiler", "workload-thread samples", "/ expected",
                "native code under Java", "Java → native → Java", "Java → qsort → Java (callback)", "process CPU",
                "peak RSS");
        for (Profiler p : Profiler.values()) {
            ChildRun run = mixedStudy.runs().get(p);
            String cpu = run != null && run.succeeded() ? ReportNumbers.seconds(run.cpuMillis() / 1000.0) : "—";
            String rss = run != null && run.succeeded()
                    ? orDash(WorkloadRunStats.peakRssKb(run), ReportNumbers::megabytesOfKb) : "—";
            MixedFigures f = mixed.get(p);
            if (f == null) {
                t.row(labels.get(p), "—", "—", "—", "—", "—", cpu, rss);
                continue;
            }
            t.row(labels.get(p), Long.toString(f.samples()),
                    orDash(ReportNumbers.divide(OptionalDouble.of(f.samples()), OptionalDouble.of(f.expected())),
                            ReportNumbers::ratio),
                    shareAndCount(f.nativeUnderJava(), f.samples()), shareAndCount(f.javaNativeJava(), f.samples()),
                    shareAndCount(f.qsortCallback(), f.samples()), cpu, rss);
        }
        return t.toString();
    }

    private void readCpu(WorkloadRunner runner, Profiler p, List<ChildRun> runs) throws IOException {
        long[] n = new long[3];
        double[] busy = new double[2];
        for (ChildRun r : runs) {
            CollapsedProfile profile = r.succeeded() ? runner.profile(r) : null;
            OptionalDouble cpuMillis = WorkloadOutput.busyThreadCpuMillis(r.stdout());
            if (profile == null || cpuMillis.isEmpty()) {
                continue;
            }
            for (int i = 0; i < 3; i++) {
                n[i] += profile.samples(CollapsedProfile.hasFrameEnding("CpuWorkload." + METHODS[i]));
            }
            busy[0] += profile.samples(CollapsedProfile.hasFrameContaining("CpuWorkload."));
            busy[1] += cpuMillis.getAsDouble() / INTERVAL_MILLIS;
        }
        methodSamples.put(p, n);
        busySamples.put(p, busy);
    }

    private void readMixed(WorkloadRunner runner, Profiler p, ChildRun run) throws IOException {
        CollapsedProfile profile = run != null && run.succeeded() ? runner.profile(run) : null;
        if (profile == null) {
            mixed.put(p, new MixedFigures(0, 0, 0, 0, 0));
            return;
        }
        Predicate<List<String>> workloadThread = CollapsedProfile.hasFrameContaining("MixedWorkload.");
        mixed.put(p, new MixedFigures(profile.samples(workloadThread),
                WorkloadOutput.busyThreadCpuMillis(run.stdout()).orElse(0) / INTERVAL_MILLIS,
                profile.samples(workloadThread.and(StackShapes::nativeUnderJava)),
                profile.samples(workloadThread.and(StackShapes::javaNativeJava)),
                profile.samples(workloadThread.and(StackShapes::javaQsortJava))));
    }

    private static String share(long n, long all) {
        return all == 0 ? "—" : ReportNumbers.percent((double) n / all);
    }

    private static String shareAndCount(long n, long all) {
        return all == 0 ? "—" : ReportNumbers.percent((double) n / all) + " (" + n + ")";
    }
}
