package io.mixflame.examples;

import io.mixflame.examples.cputime.ThreadCpuClock;

/**
 * A CPU-bound workload with a known profile: one thread calls {@link #alpha}, {@link #beta} and {@link #gamma}
 * in the ratio 5 : 3 : 2, and each call does the same work, so a correct CPU profiler attributes 50%, 30% and
 * 20% of the thread's samples to them.
 */
public final class CpuWorkload {
    /** Calls to alpha, beta and gamma in one round, in this order. */
    private static final int[] ROUND = {0, 1, 0, 2, 0, 1, 0, 2, 0, 1};
    private static final int WORK_PER_CALL = 20_000;
    /** Option: do this many rounds instead of running for {@code --seconds}. */
    static final String ROUNDS = "--rounds";

    /** Keeps the JIT from discarding the work. */
    static volatile long sink;

    private CpuWorkload() {
    }

    static void main(WorkloadArgs args) {
        Thread.currentThread().setName("cpu-workload");
        // For profilers that attach from outside (record --pid), which need to know whom to look at.
        System.out.println("cpu: pid " + ProcessHandle.current().pid());
        long cpuBefore = ThreadCpuClock.currentThreadCpuNanos();
        long startNanos = System.nanoTime();
        String done;
        if (args.given(ROUNDS)) {
            // A fixed amount of work, so that a profiler's cost shows as a longer run (the harness's overhead runs).
            long rounds = args.number(ROUNDS, 0);
            runRounds(rounds);
            done = rounds + " rounds in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms";
        } else {
            done = run(args.seconds() * 1_000_000_000L) + " rounds in " + args.seconds() + " s";
        }
        long cpuMillis = cpuBefore < 0 ? -1 : (ThreadCpuClock.currentThreadCpuNanos() - cpuBefore) / 1_000_000;
        // The thread's CPU time, not the wall time, is what a CPU profiler's samples of it should add up to.
        System.out.println("cpu: " + done + ", " + cpuMillis + " ms of CPU time (alpha:beta:gamma = 5:3:2)");
    }

    /** Runs rounds until {@code nanos} have passed; returns how many. */
    static long run(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long rounds = 0;
        long acc = 0;
        while (System.nanoTime() < deadline) {
            acc = round(acc);
            rounds++;
        }
        sink = acc;
        return rounds;
    }

    /** Runs exactly {@code rounds} rounds. */
    static void runRounds(long rounds) {
        long acc = 0;
        for (long r = 0; r < rounds; r++) {
            acc = round(acc);
        }
        sink = acc;
    }

    private static long round(long acc) {
        for (int call : ROUND) {
            acc += switch (call) {
                case 0 -> alpha(acc);
                case 1 -> beta(acc);
                default -> gamma(acc);
            };
        }
        return acc;
    }

    static long alpha(long seed) {
        return work(seed);
    }

    static long beta(long seed) {
        return work(seed);
    }

    static long gamma(long seed) {
        return work(seed);
    }

    /** The same fixed work for every caller: a xorshift chain the JIT cannot shorten. */
    private static long work(long seed) {
        long x = seed | 1;
        for (int i = 0; i < WORK_PER_CALL; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }
}
