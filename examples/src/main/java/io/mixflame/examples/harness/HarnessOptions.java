package io.mixflame.examples.harness;

import java.nio.file.Path;
import java.util.List;

/**
 * The harness's command line.
 *
 * @param quick           a short run: 1 s of CPU work, 2 s of service and mixed, one repetition unless told, the
 *                        1 ms study on {@code saturate} only
 * @param out             where to write the report's markdown too, or null for standard output only
 * @param repetitions     how often the sequence none, async-profiler, JFR, mixflame is run
 * @param mixflameOptions extra options for mixflame's agent, appended after a comma, such as {@code engine=jfr}
 * @param javaHome        the JDK the workloads run on
 * @param work            where runs keep their output and profiles, or null for a new temporary directory
 * @param benchmarks      a markdown file whose marked section the report replaces, or null
 * @param only            null for every study, or the one study run alone with a report of its own (not for
 *                        {@code --benchmarks}): {@code jni}, {@code cost}, {@code alloclock} or {@code labels}
 */
record HarnessOptions(boolean quick, Path out, int repetitions, String mixflameOptions, Path javaHome, Path work,
                      Path benchmarks, String only) {
    static final String USAGE = String.join("\n",
            "usage: java -cp mixflame-examples.jar io.mixflame.examples.harness.Harness [--quick] [--out FILE]",
            "         [--repetitions N] [--mixflame-options OPTS] [--java JAVA_HOME] [--work DIR] [--benchmarks FILE]",
            "         [--only jni|cost|alloclock|labels]",
            "  --quick               short runs (a smoke test), one repetition unless --repetitions is given",
            "  --only jni            only the JNI library study (RocksDB under none, async-profiler, mixflame), 2",
            "                        repetitions unless told; its own report, which --benchmarks does not take",
            "  --only cost           only the cost study: a short job, saturated fixed work and a 90 s",
            "                        steady state under each profiler, 2 repetitions unless told, with peak RSS, live",
            "                        heap and the JIT's compilations; its own report, which --benchmarks does not take",
            "  --only alloclock      only the allocation and lock study: alloc and lock for 6 s under",
            "                        each profiler's allocation and lock profiling, 3 repetitions unless told; its",
            "                        own report, which --benchmarks does not take",
            "  --only labels         only the labels study: service --load under none, mixflame and",
            "                        mixflame with labels, 3 repetitions unless told; its own report, which",
            "                        --benchmarks does not take",
            "  --out FILE            also write the markdown report to FILE",
            "  --repetitions N       run none, async-profiler, JFR, mixflame N times in turn (default 5; the",
            "                        wall-clock and 1 ms studies run 2 times, or 1 with --quick)",
            "  --mixflame-options O  appended to mixflame's agent options, e.g. engine=jfr",
            "  --java HOME           the JDK to run the workloads on (default: the one running the harness)",
            "  --work DIR            keep every run's output and profile here (default: a new temporary directory)",
            "  --benchmarks FILE     replace the part of FILE between <!-- harness:begin --> and <!-- harness:end -->",
            "                        (appended when absent) with the report; not written when a run failed");

    /**
     * A full run takes about 21 minutes here: per repetition the four profilers run {@code cpu} (6 s of work),
     * {@code saturate} (6 s) and {@code service} (8 s), each with 1.5 to 4 s of JVM and profiler start-up and
     * slowdown, some 110 s; five of those, the mixed runs (30 s), the wall-clock study (two repetitions of three 31 s
     * runs, about 3 minutes), the 1 ms study (two repetitions of none, async-profiler and mixflame on
     * {@code saturate} and {@code cpu}, about 110 s), the one run of the thread study (about 15 s) and the JNI library
     * study (two repetitions of none, async-profiler and mixflame on {@code rocks} for 20 s, about 130 s). A quick run
     * takes one run of each, with 1 s of work, the 1 ms study on {@code saturate} only: about 25 runs, 100 s.
     */
    private static final int FULL_REPETITIONS = 5;
    private static final int WALL_REPETITIONS = 2;
    private static final int FINE_INTERVAL_REPETITIONS = 2;
    private static final int JNI_REPETITIONS = 2;
    private static final int COST_REPETITIONS = 2;
    /** Pairs of the steady-state study: the order alternates, so an even number puts each profiler first as often. */
    private static final int STEADY_PAIRS = 4;
    private static final int ALLOC_LOCK_REPETITIONS = 3;
    private static final int LABELS_REPETITIONS = 3;

    /** Parses the arguments; throws IllegalArgumentException naming a bad one. */
    static HarnessOptions parse(List<String> args) {
        boolean quick = false;
        Path out = null;
        Integer repetitions = null;
        String mixflame = "";
        Path java = Path.of(System.getProperty("java.home"));
        Path work = null;
        Path benchmarks = null;
        String only = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--quick")) {
                quick = true;
                continue;
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException("unknown argument or missing value: '" + a + "'");
            }
            String v = args.get(++i);
            switch (a) {
                case "--out" -> out = Path.of(v);
                case "--repetitions" -> repetitions = positive(a, v);
                case "--mixflame-options" -> mixflame = v;
                case "--java" -> java = Path.of(v);
                case "--work" -> work = Path.of(v);
                case "--benchmarks" -> benchmarks = Path.of(v);
                case "--only" -> {
                    if (!List.of("jni", "cost", "steady", "alloclock", "labels").contains(v)) {
                        throw new IllegalArgumentException("--only takes jni, cost, steady, alloclock or labels, not '"
                                + v + "'");
                    }
                    only = v;
                }
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        if (only != null && benchmarks != null) {
            throw new IllegalArgumentException("--only " + only + " writes a report of its own: --benchmarks takes the"
                    + " full one");
        }
        int reps = repetitions != null ? repetitions : quick ? 1 : "jni".equals(only) ? JNI_REPETITIONS
                : "cost".equals(only) ? COST_REPETITIONS : "steady".equals(only) ? STEADY_PAIRS : "alloclock".equals(only) ? ALLOC_LOCK_REPETITIONS
                : "labels".equals(only) ? LABELS_REPETITIONS : FULL_REPETITIONS;
        return new HarnessOptions(quick, out, reps, mixflame, java, work, benchmarks, only);
    }

    /** Only the JNI library study. */
    boolean jniOnly() {
        return "jni".equals(only);
    }

    /** Only the cost study. */
    boolean costOnly() {
        return "cost".equals(only);
    }

    /** Only the steady-state pair, async-profiler and mixflame. */
    boolean steadyOnly() {
        return "steady".equals(only);
    }

    /** The steady-state pair's runs: 60 s in 10-s windows, the first 30 s not counted (quick: 4, 1, 1). */
    CostStudy.SteadyState steadyPair() {
        return quick ? new CostStudy.SteadyState(4, 1, 1) : new CostStudy.SteadyState(60, 10, 30);
    }

    /** Only the allocation and lock cost study. */
    boolean allocLockOnly() {
        return "alloclock".equals(only);
    }

    /** Only the labels study. */
    boolean labelsOnly() {
        return "labels".equals(only);
    }

    /** Seconds per run of the allocation and lock cost study. */
    int allocLockSeconds() {
        return quick ? 1 : 6;
    }

    /** The cost study's short job: milliseconds of work on one thread. */
    int shortJobMillis() {
        return quick ? 1000 : 1500;
    }

    /** The cost study's steady state: 90 s in 10-s windows, the first 30 s not counted (quick: 3, 1, 1). */
    CostStudy.SteadyState steadyState() {
        return quick ? new CostStudy.SteadyState(3, 1, 1) : new CostStudy.SteadyState(90, 10, 30);
    }

    /** Seconds of work per cpu or saturate run (the rounds are calibrated to it). */
    int cpuSeconds() {
        return quick ? 1 : 6;
    }

    /** Repetitions of the 1 ms study. */
    int fineIntervalRepetitions() {
        return quick ? 1 : FINE_INTERVAL_REPETITIONS;
    }

    /** Whether the 1 ms study runs {@code cpu} as well as {@code saturate}: not in a quick run, to keep it short. */
    boolean fineIntervalOnCpu() {
        return !quick;
    }

    /** Seconds per service run, the load generator's warm-up (a quarter, at most 2 s) included. */
    int serviceSeconds() {
        return quick ? 2 : 8;
    }

    /** Seconds per mixed run: a third for each phase. */
    int mixedSeconds() {
        return quick ? 2 : 6;
    }

    /** Repetitions of the wall-clock study. */
    int wallRepetitions() {
        return quick ? 1 : WALL_REPETITIONS;
    }

    /** The wall-clock study's parked threads. */
    int idleThreads() {
        return 500;
    }

    /** Seconds of each wall-clock run before its measured window. */
    int wallWarmUpSeconds() {
        return quick ? 1 : 10;
    }

    /** Seconds of each wall-clock run's measured window. */
    int wallSeconds() {
        return quick ? 2 : 20;
    }

    /** Repetitions of the JNI library study: all of them with {@code --only jni}, else two (one when quick). */
    int jniRepetitions() {
        return jniOnly() ? repetitions : quick ? 1 : JNI_REPETITIONS;
    }

    /** Seconds per run of the JNI library study. */
    int jniSeconds() {
        return quick ? 3 : 20;
    }

    /** The load generator's client threads. */
    int clients() {
        return 8;
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " needs a positive number, not '" + value + "'");
    }
}
