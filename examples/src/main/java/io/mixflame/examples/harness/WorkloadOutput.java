package io.mixflame.examples.harness;

import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The figures a workload prints, read back from its standard output. */
final class WorkloadOutput {
    private static final Pattern PEAK_RSS = Pattern.compile("footprint: VmHWM (-?\\d+) kB");
    private static final Pattern LIVE_HEAP = Pattern.compile("footprint: .*, live heap (\\d+) kB");
    private static final Pattern THREAD_CPU = Pattern.compile("(\\d+) ms of CPU time");
    private static final Pattern REQUESTS_PER_SECOND = Pattern.compile("load: .* ([\\d.]+) requests/s, (\\d+) errors");
    private static final Pattern BUSY_THREADS = Pattern.compile("saturate: \\d+ rounds in \\d+ m?s on (\\d+) threads");

    private WorkloadOutput() {
    }

    /** The process's peak resident set ({@code VmHWM}), in kB. */
    static OptionalDouble peakRssKb(String stdout) {
        return number(PEAK_RSS, stdout, 1);
    }

    /** {@code cpu --rounds} or {@code saturate --rounds}: how long the fixed work took, in ms. */
    /** The heap a full collection left at the workload's end, in kB. */
    static OptionalDouble liveHeapKb(String stdout) {
        return number(LIVE_HEAP, stdout, 1);
    }

    static OptionalDouble workMillis(String workload, String stdout) {
        return number(Pattern.compile(Pattern.quote(workload) + ": \\d+ rounds in (\\d+) ms"), stdout, 1);
    }

    /** {@code saturate}: how many busy threads it ran. */
    static OptionalDouble busyThreads(String stdout) {
        return number(BUSY_THREADS, stdout, 1);
    }

    /** {@code cpu} and {@code mixed}: the CPU time of the workload's one busy thread, in ms. */
    static OptionalDouble busyThreadCpuMillis(String stdout) {
        return number(THREAD_CPU, stdout, 1);
    }

    /** {@code service --load}: requests per second after the warm-up. */
    static OptionalDouble requestsPerSecond(String stdout) {
        return number(REQUESTS_PER_SECOND, stdout, 1);
    }

    /** {@code cpu --seconds N} or {@code saturate --seconds N}: rounds per second (all threads'). */
    static OptionalDouble roundsPerSecond(String workload, String stdout) {
        Matcher m = Pattern.compile(Pattern.quote(workload) + ": (\\d+) rounds in (\\d+) s\\b").matcher(stdout);
        return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1)) / Double.parseDouble(m.group(2)))
                : OptionalDouble.empty();
    }

    private static OptionalDouble number(Pattern p, String text, int group) {
        Matcher m = p.matcher(text);
        return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(group))) : OptionalDouble.empty();
    }
}
