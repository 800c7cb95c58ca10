package io.mixflame.examples.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs workloads from the examples jar under a profiler, one at a time, each in a numbered directory of the work
 * directory; converts JFR recordings to collapsed stacks; remembers which runs failed.
 */
final class WorkloadRunner {
    private final Path java;
    private final Path examplesJar;
    private final ProfilerFiles files;
    private final String mixflameOptions;
    private final Path work;
    private final List<String> failures = new ArrayList<>();
    private int runs;

    WorkloadRunner(Path java, Path examplesJar, ProfilerFiles files, String mixflameOptions, Path work) {
        this.java = java;
        this.examplesJar = examplesJar;
        this.files = files;
        this.mixflameOptions = mixflameOptions;
        this.work = work;
    }

    /**
     * Runs {@code workload} under {@code profiler}; a run that takes three times {@code expectedSeconds} plus two
     * minutes is killed and counts as failed.
     */
    ChildRun run(Profiler profiler, List<String> workload, int expectedSeconds) throws IOException, InterruptedException {
        return run(profiler, Sampling.CPU, workload, expectedSeconds);
    }

    /** As {@link #run(Profiler, List, int)}, sampling as told. */
    ChildRun run(Profiler profiler, Sampling sampling, List<String> workload, int expectedSeconds)
            throws IOException, InterruptedException {
        return run(profiler, sampling, workload, expectedSeconds, false);
    }

    /**
     * As {@link #run(Profiler, List, int)}, with async-profiler attached as well, sampling the CPU time of every
     * thread, the JVM's and the profiler's included, every 1 ms with the thread named in each stack's root frame;
     * that profile is {@link #threadProfile}.
     */
    ChildRun runWithThreadProfile(Profiler profiler, List<String> workload, int expectedSeconds)
            throws IOException, InterruptedException {
        return run(profiler, Sampling.CPU, workload, expectedSeconds, true);
    }

    /** The profile of every thread of a run made by {@link #runWithThreadProfile}, or null when it wrote none. */
    CollapsedProfile threadProfile(ChildRun run) throws IOException {
        Path p = threadProfileIn(run.dir());
        return Files.isRegularFile(p) ? CollapsedProfile.read(p) : null;
    }

    private ChildRun run(Profiler profiler, Sampling sampling, List<String> workload, int expectedSeconds,
                         boolean threadProfile) throws IOException, InterruptedException {
        runs++;
        Path dir = work.resolve(String.format(Locale.ROOT, "%03d-%s-%s%s", runs, workload.get(0),
                profiler.name().toLowerCase(Locale.ROOT), threadProfile ? "-threads" : ""));
        List<String> options = new ArrayList<>();
        if (threadProfile) {
            options.add("-agentpath:" + files.asyncProfilerLibrary() + "=start,event=cpu,interval=1ms,threads,"
                    + "collapsed,file=" + threadProfileIn(dir));
        }
        options.addAll(profiler.jvmOptions(files, dir, mixflameOptions, sampling));
        // The JIT's compilations and compile time at exit, on standard output: what each profiler made it compile.
        options.add("-XX:+CITime");
        if (workload.get(0).equals("alloc")) {
            // A fixed heap: otherwise the GC's sizing of a growing heap, not the profiler, sets how fast it allocates.
            options.add("-Xms256m");
            options.add("-Xmx256m");
        }
        ChildRun run = ChildRun.run(java, examplesJar, profiler, options, workload, dir,
                Duration.ofSeconds(expectedSeconds * 3L + 120));
        if (run.succeeded() && profiler == Profiler.JFR) {
            JfrToCollapsed.convert(run.profileFile(), collapsedIn(dir));
        }
        if (run.succeeded() && profiler != Profiler.NONE && !Files.isRegularFile(collapsedIn(dir))) {
            failures.add(profiler.label() + " " + String.join(" ", workload) + ": wrote no profile (" + dir + ")");
        }
        if (run.succeeded() && threadProfile && !Files.isRegularFile(threadProfileIn(dir))) {
            failures.add("async-profiler (threads) " + String.join(" ", workload) + ": wrote no profile (" + dir + ")");
        }
        if (!run.succeeded()) {
            failures.add(run.failure());
        }
        System.err.printf(Locale.ROOT, "harness: %3d %-14s %-40s exit %d in %.1f s%n", runs, profiler.label()
                + (threadProfile ? "+threads" : ""), String.join(" ", workload), run.status(), run.wallNanos() / 1e9);
        return run;
    }

    /** The run's profile as collapsed stacks, or null without a profiler or when it wrote none. */
    CollapsedProfile profile(ChildRun run) throws IOException {
        Path p = collapsedIn(run.dir());
        return run.profiler() == Profiler.NONE || !Files.isRegularFile(p) ? null : CollapsedProfile.read(p);
    }

    /** One line per failed run. */
    List<String> failures() {
        return List.copyOf(failures);
    }

    private static Path threadProfileIn(Path dir) {
        return dir.resolve("threads.collapsed");
    }

    private static Path collapsedIn(Path dir) {
        return dir.resolve("profile.collapsed");
    }
}
