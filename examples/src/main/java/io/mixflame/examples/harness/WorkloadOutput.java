package io.mixflame.examples.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The figures a workload prints, read back from its standard output. */
final class WorkloadOutput {
    private static final Pattern PEAK_RSS = Pattern.compile("footprint: VmHWM (-?\\d+) kB");
    private static final Pattern PROCESS_CPU = Pattern.compile("footprint: .*, process CPU (\\d+) ms");
    private static final Pattern ARRAYS = Pattern.compile("alloc: done (\\d+) arrays");
    private static final Pattern LIVE_HEAP = Pattern.compile("footprint: .*, live heap (\\d+) kB");
    private static final Pattern THREAD_CPU = Pattern.compile("(\\d+) ms of CPU time");
    private static final Pattern REQUESTS_PER_SECOND = Pattern.compile("load: .* ([\\d.]+) requests/s, (\\d+) errors");
    private static final Pattern WINDOW = Pattern.compile("saturate: window (\\d+): (\\d+) rounds in (\\d+) s");
    /** A compiler's line of {@code -XX:+CITime}: its standard and OSR compilations, time and methods. */
    private static final Pattern CI_TIME = Pattern.compile("^ +C[12] \\{.*?standard: +([\\d.]+) s, \\d+ bytes, (\\d+) methods;"
            + " osr: +([\\d.]+) s, \\d+ bytes, (\\d+) methods;", Pattern.MULTILINE);
    private static final Pattern BUSY_THREADS = Pattern.compile("saturate: \\d+ rounds in \\d+ m?s on (\\d+) threads");

    private WorkloadOutput() {
    }

    /** The process's CPU time (every thread's, the profiler's included), in ms. */
    static OptionalDouble processCpuMillis(String stdout) {
        return number(PROCESS_CPU, stdout, 1);
    }

    /** {@code alloc}: the arrays both threads allocated. */
    static OptionalDouble arrays(String stdout) {
        return number(ARRAYS, stdout, 1);
    }

    /** The process's peak resident set ({@code VmHWM}), in kB. */
    static OptionalDouble peakRssKb(String stdout) {
        return number(PEAK_RSS, stdout, 1);
    }

    /** The heap a full collection left at the workload's end, in kB. */
    static OptionalDouble liveHeapKb(String stdout) {
        return number(LIVE_HEAP, stdout, 1);
    }

    /** {@code cpu --rounds} or {@code saturate --rounds}: how long the fixed work took, in ms. */
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

    /**
     * {@code saturate --seconds N --window W}: the rounds per second over the windows that ended after
     * {@code skipSeconds}; empty when the run printed none of those.
     */
    static OptionalDouble steadyRoundsPerSecond(String stdout, int skipSeconds) {
        Matcher m = WINDOW.matcher(stdout);
        long rounds = 0;
        long seconds = 0;
        while (m.find()) {
            long window = Long.parseLong(m.group(3));
            if (Long.parseLong(m.group(1)) * window > skipSeconds) {
                rounds += Long.parseLong(m.group(2));
                seconds += window;
            }
        }
        return seconds == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) rounds / seconds);
    }

    /** {@code saturate --window W}: the rounds of each window, in order. */
    static long[] windowRounds(String stdout) {
        Matcher m = WINDOW.matcher(stdout);
        List<Long> rounds = new ArrayList<>();
        while (m.find()) {
            rounds.add(Long.parseLong(m.group(2)));
        }
        return rounds.stream().mapToLong(Long::longValue).toArray();
    }

    /** The methods C1 and C2 compiled, OSR compilations included, from {@code -XX:+CITime}'s lines at exit. */
    static OptionalDouble jitCompilations(String stdout) {
        return ciTime(stdout, 2, 4);
    }

    /** The seconds C1 and C2 spent compiling, from {@code -XX:+CITime}'s lines at exit. */
    static OptionalDouble jitSeconds(String stdout) {
        return ciTime(stdout, 1, 3);
    }

    private static OptionalDouble ciTime(String stdout, int standard, int osr) {
        Matcher m = CI_TIME.matcher(stdout);
        double sum = 0;
        int compilers = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(standard)) + Double.parseDouble(m.group(osr));
            compilers++;
        }
        return compilers == 0 ? OptionalDouble.empty() : OptionalDouble.of(sum);
    }

    private static OptionalDouble number(Pattern p, String text, int group) {
        Matcher m = p.matcher(text);
        return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(group))) : OptionalDouble.empty();
    }
}
