package io.mixflame.examples.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The benchmark harness: runs the example workloads under no profiler, async-profiler, JFR and mixflame, and
 * prints a markdown section with overhead, accuracy and mixflame's own cost against its targets.
 *
 * <pre>java -cp examples/target/mixflame-examples.jar io.mixflame.examples.harness.Harness [--quick] [--out FILE]</pre>
 *
 * <p>Exits with 1 when a run failed (the report lists it), 2 on a bad argument.
 */
public final class Harness {
    /** Seconds of the calibration runs that decide the cpu and saturate workloads' rounds. */
    private static final int CALIBRATION_SECONDS = 2;

    private Harness() {
    }

    public static void main(String[] args) throws Exception {
        HarnessOptions options;
        try {
            options = HarnessOptions.parse(Arrays.asList(args));
            if (options.benchmarks() != null) {
                // Checked before ten minutes of runs, not after.
                MarkedSection.replace(readable(options.benchmarks()), "");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("harness: " + e.getMessage() + "\n" + HarnessOptions.USAGE);
            System.exit(2);
            return;
        }
        Path root = ProfilerFiles.projectRoot();
        Path work = options.work() != null ? Files.createDirectories(options.work())
                : Files.createTempDirectory("mixflame-harness-");
        System.err.println("harness: runs and profiles go to " + work);
        ProfilerFiles files = ProfilerFiles.find(root, work);
        WorkloadRunner runner = new WorkloadRunner(options.javaHome().resolve("bin/java"),
                root.resolve("examples/target/mixflame-examples.jar"), files, options.mixflameOptions(), work);

        if (options.jniOnly()) {
            JniLibraryStudy jni = JniLibraryStudy.run(runner, options.jniRepetitions(), options.jniSeconds());
            Map<Profiler, String> labels = labels(runner, files, jni.runs().getOrDefault(Profiler.MIXFLAME, List.of()));
            finish(options, BenchmarkReport.jniMarkdown(command(args), MachineDescription.describe(options.javaHome()),
                    labels, profilerArgs(files, options), new JniLibrarySection(runner, jni), runner.failures()), runner);
            return;
        }
        if (options.allocLockOnly()) {
            AllocLockStudy study = AllocLockStudy.run(runner, options.repetitions(), options.allocLockSeconds());
            Map<Profiler, String> labels = labels(runner, files, study.alloc().getOrDefault(Profiler.MIXFLAME,
                    List.of()));
            finish(options, BenchmarkReport.allocLockMarkdown(command(args),
                    MachineDescription.describe(options.javaHome()), profilerArgs(files, options),
                    new AllocLockSection(study, labels), options.repetitions(), runner.failures()), runner);
            return;
        }
        if (options.labelsOnly()) {
            LabelsStudy study = LabelsStudy.run(runner, options.repetitions(), options.serviceSeconds(),
                    options.clients());
            Map<Profiler, String> labels = labels(runner, files, study.of(LabelsStudy.Setting.MIXFLAME));
            finish(options, BenchmarkReport.labelsMarkdown(command(args), MachineDescription.describe(options.javaHome()),
                    profilerArgs(files, options), new LabelsSection(runner, study, labels), options.repetitions(),
                    runner.failures()), runner);
            return;
        }
        if (options.steadyOnly()) {
            SteadyPairStudy study = SteadyPairStudy.run(runner, options.repetitions(), options.steadyPair());
            finish(options, BenchmarkReport.steadyPairMarkdown(command(args),
                    MachineDescription.describe(options.javaHome()), profilerArgs(files, options),
                    new SteadyPairSection(study), runner.failures()), runner);
            return;
        }
        if (options.costOnly()) {
            FixedWork shortJob = calibrateByWindows(runner, List.of("--threads", "1"), options.shortJobMillis());
            FixedWork saturated = calibrateByWindows(runner, List.of(), options.cpuSeconds() * 1000);
            CostStudy study = CostStudy.run(runner, options.repetitions(), shortJob, saturated, options.steadyState());
            Map<Profiler, String> labels = labels(runner, files, study.saturatedRuns().of(Profiler.MIXFLAME));
            finish(options, BenchmarkReport.costMarkdown(command(args), MachineDescription.describe(options.javaHome()),
                    profilerArgs(files, options), new CostSection(study, labels), options.repetitions(),
                    runner.failures()), runner);
            return;
        }
        FixedWork cpuWork = calibrate(runner, "cpu", options.cpuSeconds());
        FixedWork saturateWork = calibrate(runner, "saturate", options.cpuSeconds());
        OverheadStudy overhead = OverheadStudy.run(runner, options.repetitions(), cpuWork, saturateWork,
                options.serviceSeconds(), options.clients());
        MixedStudy mixed = MixedStudy.run(runner, options.mixedSeconds());
        WallStudy wall = WallStudy.run(runner, options.wallRepetitions(), options.idleThreads(),
                options.wallWarmUpSeconds(), options.wallSeconds());
        FineIntervalStudy fine = FineIntervalStudy.run(runner, options.fineIntervalRepetitions(),
                options.fineIntervalOnCpu() ? List.of(saturateWork, cpuWork) : List.of(saturateWork));
        ThreadCpuStudy threads = ThreadCpuStudy.run(runner, saturateWork);
        JniLibraryStudy jni = JniLibraryStudy.run(runner, options.jniRepetitions(), options.jniSeconds());

        Map<Profiler, String> labels = labels(runner, files, MixflameCostSection.runsOf(overhead, mixed, null));
        OverheadSection overheadTables = new OverheadSection(overhead, labels);
        AccuracySection accuracy = new AccuracySection(runner, overhead, mixed, labels);
        WallSection wallTable = new WallSection(wall, labels, runner);
        MixflameCostSection cost = new MixflameCostSection(runner, MixflameCostSection.runsOf(overhead, mixed, wall));
        FineIntervalSection fineTables = new FineIntervalSection(runner, fine, labels);
        ThreadCpuSection threadTable = new ThreadCpuSection(runner, threads);
        String report = BenchmarkReport.markdown(command(args), MachineDescription.describe(options.javaHome()), options,
                labels, profilerArgs(files, options), overhead, mixed, wall, overheadTables, accuracy, wallTable, cost,
                fineTables, threadTable, new JniLibrarySection(runner, jni), runner.failures());
        finish(options, report, runner);
    }

    /** Prints the report, writes it where told, and exits: 1 when a run failed. */
    private static void finish(HarnessOptions options, String report, WorkloadRunner runner) throws IOException {
        System.out.print(report);
        if (options.out() != null) {
            Files.writeString(options.out(), report, StandardCharsets.UTF_8);
        }
        if (options.benchmarks() != null) {
            if (runner.failures().isEmpty()) {
                MarkedSection.write(options.benchmarks(), report);
                System.err.println("harness: replaced the harness section of " + options.benchmarks());
            } else {
                System.err.println("harness: " + options.benchmarks() + " left as it was: " + runner.failures().size()
                        + " run(s) failed");
            }
        }
        System.exit(runner.failures().isEmpty() ? 0 : 1);
    }

    private static String readable(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** Rounds of a workload that take about {@code seconds} here, from a short run without a profiler. */
    private static FixedWork calibrate(WorkloadRunner runner, String workload, int seconds)
            throws IOException, InterruptedException {
        ChildRun run = runner.run(Profiler.NONE, List.of(workload, "--seconds", Integer.toString(CALIBRATION_SECONDS)),
                CALIBRATION_SECONDS);
        double perSecond = WorkloadOutput.roundsPerSecond(workload, run.stdout()).orElseThrow(() ->
                new IllegalStateException("the calibration run printed no rounds: " + run.failure()));
        return new FixedWork(workload, Math.max(1, Math.round(perSecond * seconds)), seconds);
    }

    /**
     * Rounds of {@code saturate} run with {@code options} that take about {@code millis} in a fresh JVM here: from a
     * run of two one-second windows without a profiler, the first with the JVM's warm-up in it, the second warm. A
     * single rate from a short run would count the warm-up for all of a longer work's time (a 6-s work took 3 s).
     */
    private static FixedWork calibrateByWindows(WorkloadRunner runner, List<String> options, int millis)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("saturate"));
        command.addAll(options);
        command.addAll(List.of("--seconds", "2", "--window", "1"));
        ChildRun run = runner.run(Profiler.NONE, command, 2);
        long[] windows = WorkloadOutput.windowRounds(run.stdout());
        if (windows.length < 2 || windows[0] <= 0 || windows[1] <= 0) {
            throw new IllegalStateException("the calibration run printed no windows: " + run.failure());
        }
        double warmingUp = windows[0];
        double warm = windows[1];
        double rounds = millis <= 1000 ? warmingUp * millis / 1000.0 : warmingUp + warm * (millis - 1000) / 1000.0;
        return new FixedWork("saturate", options, Math.max(1, Math.round(rounds)), (millis + 999) / 1000);
    }

    /** The profilers' names in the tables; mixflame's says which engine its profiles' headers name. */
    private static Map<Profiler, String> labels(WorkloadRunner runner, ProfilerFiles files, List<ChildRun> mixflameRuns)
            throws IOException {
        Map<Profiler, String> labels = new EnumMap<>(Profiler.class);
        for (Profiler p : Profiler.values()) {
            labels.put(p, p.label());
        }
        labels.put(Profiler.ASYNC_PROFILER, "async-profiler " + files.asyncProfilerVersion());
        TreeSet<String> engines = new TreeSet<>();
        for (ChildRun r : mixflameRuns) {
            CollapsedProfile profile = r.succeeded() ? runner.profile(r) : null;
            if (profile != null && profile.engine() != null) {
                engines.add(profile.engine());
            }
        }
        labels.put(Profiler.MIXFLAME, "mixflame (engine=" + (engines.isEmpty() ? "?" : String.join("/", engines)) + ")");
        return labels;
    }

    private static String profilerArgs(ProfilerFiles files, HarnessOptions options) {
        String extra = options.mixflameOptions().isBlank() ? "" : "," + options.mixflameOptions();
        return "- async-profiler " + files.asyncProfilerVersion() + " (from Maven Central's `tools.profiler:async-profiler`):"
                + " `-agentpath:libasyncProfiler.so=start,event=cpu,interval=10ms,ann,collapsed,file=…`\n"
                + "- JFR: `-XX:StartFlightRecording=settings=profile,filename=…` (Java execution samples every 10 ms;"
                + " converted to collapsed stacks from `jdk.ExecutionSample`)\n"
                + "- mixflame: `-javaagent:agent/target/mixflame.jar=start,event=cpu,interval=10ms,ann,file=…" + extra + "`"
                + " (the engine is the one its output header names)\n"
                + "- the wall-clock study gives async-profiler and mixflame `event=wall,interval=20ms` instead, the 1 ms"
                + " study `event=cpu,interval=1ms`\n"
                + "- the JNI library study adds `threads` to async-profiler's and mixflame's options\n"
                + "- the thread study adds async-profiler to mixflame's run:"
                + " `-agentpath:libasyncProfiler.so=start,event=cpu,interval=1ms,threads,collapsed,file=…`\n";
    }

    private static String command(String[] args) {
        StringBuilder b = new StringBuilder("java -cp examples/target/mixflame-examples.jar ")
                .append(Harness.class.getName());
        for (String a : args) {
            b.append(' ').append(a.matches("[\\w./=,:-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return b.toString();
    }
}
