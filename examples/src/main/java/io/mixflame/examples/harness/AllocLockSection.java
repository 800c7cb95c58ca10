package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

/**
 * The allocation and lock cost study's table: per workload and profiler, the medians over the runs of what the
 * workload did, the process's CPU time and its peak RSS, each beside none's.
 */
final class AllocLockSection {
    private final AllocLockStudy study;
    private final Map<Profiler, String> labels;

    AllocLockSection(AllocLockStudy study, Map<Profiler, String> labels) {
        this.study = study;
        this.labels = labels;
    }

    /** The section: what ran, and the table. */
    String markdown(int repetitions) {
        MarkdownTable t = new MarkdownTable("workload", "profiler", "arrays per CPU second (vs none)",
                "process CPU (vs none)", "peak RSS");
        rows(t, "`alloc`, allocation profiling", study.alloc(), true);
        rows(t, "`lock`, lock profiling", study.lock(), false);
        return "### Allocation and lock profiling: `alloc` and `lock --seconds " + study.seconds() + "`\n\n"
                + "None, async-profiler (`event=alloc`: a sample every 512 KB; `event=lock,lock=10ms`), JFR (its "
                + "`profile` settings, which record allocation samples at 300 a second and monitor enters and parks "
                + "of 10 ms or more, and the rest of what they record) and mixflame (`event=alloc`: JFR's allocation "
                + "samples, 300 a second; `event=lock,lock=10ms`) in turn, " + repetitions
                + (repetitions == 1 ? " time" : " times") + ". `alloc`: two threads allocating 4 KB arrays as fast "
                + "as they can in a fixed 256 MB heap (`-Xms256m -Xmx256m`): arrays per second of the process's CPU "
                + "time is what a profiler costs the work (arrays per second alone follows the CPU a shared machine "
                + "leaves the run, and so does the CPU time of a run of fixed length); `lock`: eight threads "
                + "waiting their turn for a monitor and a `ReentrantLock` held 5 ms each, whose pace the locks set, "
                + "so that only the CPU and memory a profiler adds show. Process CPU covers the whole run, JVM start "
                + "and the workload's 2-s idle end included. Medians over the runs.\n\n" + t + '\n';
    }

    private void rows(MarkdownTable t, String workload, Map<Profiler, List<ChildRun>> runs, boolean arrays) {
        Figures none = figures(runs.getOrDefault(Profiler.NONE, List.of()));
        for (Profiler p : Profiler.values()) {
            Figures f = figures(runs.getOrDefault(p, List.of()));
            boolean profiled = p != Profiler.NONE;
            t.row(workload, labels.getOrDefault(p, p.label()),
                    arrays ? withRatio(f.arraysPerCpuSecond.median(), none.arraysPerCpuSecond.median(), profiled,
                            ReportNumbers::number) : "",
                    withRatio(f.cpuMillis.median(), none.cpuMillis.median(), profiled && !arrays,
                            ms -> ReportNumbers.seconds(ms / 1000)),
                    orDash(f.peakRssKb.median(), ReportNumbers::megabytesOfKb));
        }
    }

    private static String withRatio(OptionalDouble value, OptionalDouble none, boolean profiled,
                                    DoubleFunction<String> format) {
        String v = orDash(value, format);
        return profiled ? v + " (" + orDash(ReportNumbers.divide(value, none), ReportNumbers::ratio) + ")" : v;
    }

    private Figures figures(List<ChildRun> runs) {
        Figures f = new Figures();
        for (ChildRun run : runs) {
            if (!run.succeeded()) {
                continue;
            }
            OptionalDouble cpuMillis = WorkloadOutput.processCpuMillis(run.stdout());
            cpuMillis.ifPresent(f.cpuMillis::add);
            OptionalDouble perCpuSecond = ReportNumbers.divide(WorkloadOutput.arrays(run.stdout()),
                    ReportNumbers.divide(cpuMillis, OptionalDouble.of(1000)));
            perCpuSecond.ifPresent(f.arraysPerCpuSecond::add);
            WorkloadOutput.peakRssKb(run.stdout()).ifPresent(f.peakRssKb::add);
        }
        return f;
    }

    /** One profiler's runs of one workload. */
    private static final class Figures {
        final Measurements arraysPerCpuSecond = new Measurements();
        final Measurements cpuMillis = new Measurements();
        final Measurements peakRssKb = new Measurements();
    }
}
