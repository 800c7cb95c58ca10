package io.mixflame.examples.churn;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * {@code churn}: what makes a profiler's bookkeeping hard. One thread starts short-lived threads in bursts; the
 * main thread meanwhile defines a class in a throwaway loader again and again, runs it until the JIT has compiled
 * it, deoptimizes it, and drops it, with a full GC twice a second so that the classes are unloaded.
 */
public final class ChurnWorkload {
    private static final long GC_EVERY_NANOS = 500_000_000L;

    private ChurnWorkload() {
    }

    /**
     * Churns for {@code seconds} and prints the counts.
     *
     * @param untilInputEnds end sooner, when standard input ends: a caller that looks at the process meanwhile (a
     *                       test's diagnostic commands, slow on a busy machine) then decides when it ends, instead of
     *                       racing a fixed deadline
     */
    public static void run(int seconds, boolean untilInputEnds) throws Exception {
        Thread.currentThread().setName("churn-workload");
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        var threads = ManagementFactory.getThreadMXBean();
        ClassChurn classChurn = new ClassChurn();
        ThreadChurn threadChurn = new ThreadChurn();
        Map<String, Long> deopts;
        long gcs = 0;
        try (DeoptimizationCount deoptCount = new DeoptimizationCount()) {
            long loadedBefore = classes.getTotalLoadedClassCount();
            long unloadedBefore = classes.getUnloadedClassCount();
            long threadsBefore = threads.getTotalStartedThreadCount();
            Thread churner = new Thread(threadChurn, "thread-churn");
            InputEnd inputEnd = untilInputEnds ? InputEnd.watch() : null;
            long start = System.nanoTime();
            long deadline = start + seconds * 1_000_000_000L;
            long lastGc = start;
            churner.start();
            while (System.nanoTime() < deadline && (inputEnd == null || !inputEnd.ended())) {
                classChurn.once();
                if (System.nanoTime() - lastGc > GC_EVERY_NANOS) {
                    System.gc();
                    gcs++;
                    lastGc = System.nanoTime();
                }
            }
            threadChurn.stop();
            churner.join();
            // A last full GC, so that the copies dropped since the previous one are unloaded and counted too.
            System.gc();
            gcs++;
            deopts = deoptCount.stop();
            long ranSeconds = (System.nanoTime() - start) / 1_000_000_000L;
            System.out.println("churn: " + threadChurn.started() + " threads started, in bursts of "
                    + ThreadChurn.burst() + " (ThreadMXBean: " + (threads.getTotalStartedThreadCount() - threadsBefore)
                    + " started in all)");
            System.out.println("churn: " + classChurn.defined() + " payload classes defined in throwaway loaders; "
                    + (classes.getTotalLoadedClassCount() - loadedBefore) + " classes loaded, "
                    + (classes.getUnloadedClassCount() - unloadedBefore) + " classes unloaded (ClassLoadingMXBean), "
                    + gcs + " System.gc() calls in " + ranSeconds + " s");
        }
        long total = deopts.values().stream().mapToLong(Long::longValue).sum();
        System.out.println("churn: " + total + " deoptimizations (JFR jdk.Deoptimization), by reason " + deopts);
    }
}
