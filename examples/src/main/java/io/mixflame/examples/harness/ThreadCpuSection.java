package io.mixflame.examples.harness;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The thread study's table: async-profiler's 1 ms CPU samples of the run under mixflame, per category of thread, as
 * seconds (a sample is 1 ms of CPU time) and as shares of the whole process's CPU time.
 */
final class ThreadCpuSection {
    private static final double SECONDS_PER_SAMPLE = 0.001;
    /** The frame in which the main thread runs a Java agent's {@code premain}: mixflame's start-up. */
    private static final String PREMAIN = "loadClassAndCallPremain";

    private final ThreadCpuStudy study;
    private final Map<ThreadCategory, Long> samples;
    private final long premainSamples;
    private final List<String> mixflameNotes;

    ThreadCpuSection(WorkloadRunner runner, ThreadCpuStudy study) throws IOException {
        this.study = study;
        CollapsedProfile threads = study.run().succeeded() ? runner.threadProfile(study.run()) : null;
        samples = threads == null ? Map.of() : ThreadCategory.samplesOf(threads);
        premainSamples = threads == null ? 0 : threads.samples(CollapsedProfile.hasFrameContaining(PREMAIN));
        CollapsedProfile mixflame = study.run().succeeded() ? runner.profile(study.run()) : null;
        mixflameNotes = mixflame == null ? List.of() : mixflame.notes();
    }

    /** The table, and what mixflame said of its own cost in that run; a sentence when the run failed. */
    String text() {
        if (samples.isEmpty()) {
            return "The run failed or async-profiler wrote no profile: see the failed runs.\n";
        }
        double processSeconds = study.run().cpuMillis() / 1000.0;
        MarkdownTable t = new MarkdownTable("threads", "samples", "CPU", "% of process CPU");
        long all = 0;
        for (ThreadCategory c : ThreadCategory.values()) {
            long n = samples.get(c);
            all += n;
            t.row(c.label(), Long.toString(n), ReportNumbers.seconds(n * SECONDS_PER_SAMPLE),
                    share(n * SECONDS_PER_SAMPLE, processSeconds));
        }
        t.row("all sampled threads", Long.toString(all), ReportNumbers.seconds(all * SECONDS_PER_SAMPLE),
                share(all * SECONDS_PER_SAMPLE, processSeconds));
        t.row("process CPU (`cutime + cstime`)", "—", ReportNumbers.seconds(processSeconds), "100.0%");
        StringBuilder b = new StringBuilder(t.toString()).append('\n');
        b.append("Of the main thread's, ").append(ReportNumbers.seconds(premainSamples * SECONDS_PER_SAMPLE))
                .append(" were in a Java agent's `premain` (mixflame's start-up). ");
        b.append(mixflameNotes.isEmpty() ? "mixflame's profile had no `# note:` line."
                : "mixflame's note for this run: " + String.join("; ", mixflameNotes) + ".");
        return b.append('\n').toString();
    }

    private static String share(double seconds, double processSeconds) {
        return processSeconds > 0 ? ReportNumbers.percent(seconds / processSeconds) : "—";
    }
}
