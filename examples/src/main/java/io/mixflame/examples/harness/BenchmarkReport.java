package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.util.List;
import java.util.Map;

/** The markdown section the harness prints: how it was measured, then one table per question. */
final class BenchmarkReport {
    private BenchmarkReport() {
    }

    /**
     * @param command      the command that made it
     * @param machine      {@link MachineDescription#describe}
     * @param options      the harness's options
     * @param labels       each profiler's name in the tables
     * @param profilerArgs one line per profiler saying how it was started
     */
    static String markdown(String command, String machine, HarnessOptions options, Map<Profiler, String> labels,
                           String profilerArgs, OverheadStudy overhead, MixedStudy mixed, WallStudy wall,
                           OverheadSection overheadTables, AccuracySection accuracy, WallSection wallTable,
                           MixflameCostSection cost, FineIntervalSection fine, ThreadCpuSection threads,
                           JniLibrarySection jni, List<String> failures) {
        StringBuilder b = new StringBuilder();
        b.append("## Profilers compared: overhead and accuracy at 10 ms\n\n");
        b.append("What: the example workloads in their own JVMs under no profiler, async-profiler, JFR and mixflame, ")
                .append("each sampling CPU every 10 ms, run in turn (none, async-profiler, JFR, mixflame) ")
                .append(options.repetitions()).append(options.repetitions() == 1 ? " time" : " times")
                .append(" so that drifts of a shared machine touch all alike. Ratios are medians over the ")
                .append("repetitions of a run's figure over that of the run without a profiler in the same ")
                .append("repetition; costs are those ratios as a slowdown or a loss of throughput.\n\n");
        b.append("Command (after `mvn -q -DskipTests package`):\n\n```sh\n").append(command).append("\n```\n\n");
        b.append(machine).append("\n\nProfilers:\n\n").append(profilerArgs).append('\n');
        FixedWork cpuWork = overhead.cpuWork();
        b.append("### Overhead: `cpu --rounds ").append(cpuWork.rounds()).append("` (fixed work, about ")
                .append(cpuWork.seconds()).append(" s on one thread)\n\n");
        b.append("Work time is what the workload measured around its rounds; process wall is JVM start to exit, the ")
                .append("profiler's start-up and the writing of its profile included; process CPU is the whole ")
                .append("process's user + system time (from the harness's `cutime + cstime`), the median in seconds ")
                .append("and as a ratio; peak RSS is the ")
                .append("workload's own `VmHWM` just before it exits; live heap at exit is what a full collection ")
                .append("leaves then (the profiler still attached): the difference from none is what a profiler keeps ")
                .append("on the application's heap. Spread of runs is (max − min) / median of the ")
                .append("work time; a cost not well above the baseline's own spread (")
                .append(orDash(overheadTables.cpuBaselineSpread(), ReportNumbers::percent))
                .append(") may be noise.\n\n");
        b.append(overheadTables.cpuTable()).append('\n');
        FixedWork saturateWork = overhead.saturateWork();
        b.append("### Overhead under saturation: `saturate --rounds ").append(saturateWork.rounds())
                .append("` (fixed work, about ").append(saturateWork.seconds()).append(" s on ")
                .append(orDash(overheadTables.saturateThreads(), ReportNumbers::number))
                .append(" busy threads, one per core)\n\n");
        b.append("Each busy thread does its share of the rounds, each round the same Java arithmetic, zlib CRC32 of a ")
                .append("native buffer through JNI and HashMap churn. With every core busy, a profiler's threads take ")
                .append("their CPU from the workload's, so its cost shows as a longer work time. Columns as above; ")
                .append("baseline spread: ").append(orDash(overheadTables.saturateBaselineSpread(), ReportNumbers::percent))
                .append(".\n\n");
        b.append(overheadTables.saturateTable()).append('\n');
        b.append("### Overhead: `service --load --seconds ").append(overhead.serviceSeconds()).append(" --threads ")
                .append(overhead.clients()).append("` (fixed time)\n\n");
        b.append("Requests per second after the load generator's warm-up, with server and clients in one process ")
                .append("on 127.0.0.1 (`/cpu`, `/sleep`, `/lock` in turn). Baseline spread: ")
                .append(orDash(overheadTables.serviceBaselineSpread(), ReportNumbers::percent)).append(".\n\n");
        b.append(overheadTables.serviceTable()).append('\n');
        b.append("### Accuracy: `cpu` (alpha : beta : gamma = 50 : 30 : 20)\n\n");
        b.append("Samples pooled over all `cpu` runs above. Expected busy-thread samples: the thread's CPU time ")
                .append("(as the workload measured it) / 10 ms.\n\n");
        b.append(accuracy.sharesTable()).append('\n');
        b.append("### Native frames: `mixed --seconds ").append(mixed.seconds()).append("`\n\n");
        b.append("Shares of the samples of the workload's thread (stacks with a `MixedWorkload` frame). Native code ")
                .append("is a frame that is neither Java, kernel, a JVM stub nor a marker; the callback column counts ")
                .append("stacks with libc's qsort between Java frames (Java comparator called from C). JFR records ")
                .append("Java frames only and samples no thread that is in native code.\n\n");
        b.append(accuracy.mixedTable()).append('\n');
        b.append("### Wall clock: `idle --threads ").append(wall.threads()).append("`\n\n");
        b.append(wall.threads()).append(" parked threads sampled every 20 ms; each run waits ").append(wall.warmUpSeconds())
                .append(" s (start-up, the profiler's code compiled), then the workload measures its process's CPU time")
                .append(" over ").append(wall.seconds()).append(" s. With nothing else running, the extra over the run ")
                .append("without a profiler in the same repetition is the profiler's cost. Expected samples: every idle ")
                .append("thread every 20 ms through warm-up and window. JFR has no wall-clock sampling of idle threads.\n\n");
        b.append(wallTable.table()).append('\n');
        b.append("### mixflame's own cost (its `# note:` lines)\n\n").append(cost.text()).append('\n');
        b.append("### Sampling every 1 ms\n\n");
        b.append("The same fixed work under async-profiler and mixflame with `interval=1ms`, and without a profiler, ")
                .append("in turn, ").append(fine.repetitions()).append(fine.repetitions() == 1 ? " time" : " times")
                .append(" (each run's work about the seconds of the 10 ms runs above). Samples per run are those in ")
                .append("the profile; lost (by the kernel, a full ring buffer) and dropped (by mixflame, no free ")
                .append("buffer) are summed over mixflame's runs from its `# note:` lines, and their share is of the ")
                .append("samples taken, lost ones included. async-profiler reports no such counts in its output.\n\n");
        for (FixedWork w : fine.works()) {
            b.append("#### `").append(String.join(" ", w.command())).append("` at 1 ms (about ").append(w.seconds())
                    .append(" s of work per run)\n\n").append(fine.table(w)).append('\n');
        }
        b.append("### Where mixflame's CPU goes: `").append(String.join(" ", saturateWork.command()))
                .append("` with async-profiler watching\n\n");
        b.append("One run of about ").append(saturateWork.seconds()).append(" s of work under mixflame at 10 ms with ")
                .append("async-profiler attached too, sampling every thread's CPU time every 1 ms (`threads`): the ")
                .append("samples per thread, grouped by the thread's name in the stack's root frame, each 1 ms of CPU ")
                .append("time. async-profiler's own cost lands in the threads it samples and in \"other\"; what the ")
                .append("threads add up to falls short of the process's CPU by the time no sample caught.\n\n");
        b.append(threads.text()).append('\n');
        b.append(jniSection(jni, labels));
        b.append("### Against the targets\n\n")
                .append(TargetsSection.table(overheadTables, accuracy, wallTable, cost, fine)).append('\n');
        failedRuns(b, failures);
        return b.toString();
    }

    /** The report of {@code --only jni}: how it was measured, and the JNI library study's table. */
    static String jniMarkdown(String command, String machine, Map<Profiler, String> labels, String profilerArgs,
                              JniLibrarySection jni, List<String> failures) {
        StringBuilder b = new StringBuilder();
        b.append("## A real JNI library: RocksDB\n\n");
        b.append("Command (after `mvn -q -DskipTests package`):\n\n```sh\n").append(command).append("\n```\n\n");
        b.append(machine).append("\n\nProfilers:\n\n").append(profilerArgs).append('\n');
        b.append(jniSection(jni, labels));
        failedRuns(b, failures);
        return b.toString();
    }

    /** The report of {@code --only cost}: the cost study alone. */
    static String costMarkdown(String command, String machine, String profilerArgs, CostSection cost, int repetitions,
                               List<String> failures) {
        return studyMarkdown("What the service pays for its profiler", command, machine, profilerArgs,
                cost.markdown(repetitions), failures);
    }

    /** The report of {@code --only steady}: the steady-state pair. */
    static String steadyPairMarkdown(String command, String machine, String profilerArgs, SteadyPairSection section,
                                     List<String> failures) {
        return studyMarkdown("The steady state beside async-profiler", command, machine, profilerArgs,
                section.markdown(), failures);
    }

    static String allocLockMarkdown(String command, String machine, String profilerArgs, AllocLockSection section,
                                    int repetitions, List<String> failures) {
        return studyMarkdown("What allocation and lock profiling cost", command, machine, profilerArgs,
                section.markdown(repetitions), failures);
    }

    /** The report of {@code --only labels}: what labels cost the service. */
    static String labelsMarkdown(String command, String machine, String profilerArgs, LabelsSection section,
                                 int repetitions, List<String> failures) {
        return studyMarkdown("What labels cost", command, machine, profilerArgs,
                section.markdown(repetitions), failures);
    }

    /** The report of one study run alone: its heading, the command, the machine, the profilers, the study. */
    private static String studyMarkdown(String heading, String command, String machine, String profilerArgs,
                                        String study, List<String> failures) {
        StringBuilder b = new StringBuilder();
        b.append("## ").append(heading).append("\n\n");
        b.append("Command (after `mvn -q -DskipTests package`):\n\n```sh\n").append(command).append("\n```\n\n");
        b.append(machine).append("\n\nProfilers:\n\n").append(profilerArgs).append('\n');
        b.append(study);
        failedRuns(b, failures);
        return b.toString();
    }

    private static String jniSection(JniLibrarySection jni, Map<Profiler, String> labels) {
        JniLibraryStudy study = jni.study();
        int repetitions = study.runs().getOrDefault(Profiler.NONE, List.of()).size();
        return "### A real JNI library: `rocks --seconds " + study.seconds() + "`\n\n"
                + "RocksDB " + "from Maven Central (`org.rocksdb:rocksdbjni`: C++ with zstd, some functions without symbols, "
                + "loaded from a temporary copy with a random name): the main thread puts, gets and scans; RocksDB's own "
                + "threads (`rocksdb:low`, `rocksdb:high`) flush and compact. None, async-profiler and mixflame in turn, "
                + repetitions + (repetitions == 1 ? " time" : " times") + ", CPU every 10 ms with `threads`; JFR records no "
                + "native frames and is left out. Shares are of the samples pooled over the runs; a library frame named "
                + "without a function is code of the library without a symbol (mixflame: `[librocksdbjni.so+0x…]`, the "
                + "start of its function from the unwind data; async-profiler: the library's path); the calling thread "
                + "is the one running the workload's Java methods, and its library samples count when a method of the "
                + "workload is below them. Rounds per second and peak RSS are medians over the runs; mixflame's per-sample "
                + "figures are from its `# note:` lines (after its first 10 s).\n\n" + jni.table(labels) + '\n';
    }

    private static void failedRuns(StringBuilder b, List<String> failures) {
        if (!failures.isEmpty()) {
            b.append("### Failed runs\n\n");
            failures.forEach(f -> b.append("- ").append(f).append('\n'));
            b.append('\n');
        }
    }
}
