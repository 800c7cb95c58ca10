package io.mixflame.engine.jfr;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * Tells a thread JFR found in a native method that was running there from one blocked there (in a read, a poll):
 * JFR's native-method samples take both alike, and a CPU profile wants only the first. A thread counts when it used
 * at least half of the wall time since the previous decision on a CPU. JFR's stream hands its events over in
 * batches, so the samples of one batch come within moments of each other: a decision stands for
 * {@value #DECISION_NANOS} ns, and the samples in that time share it (else the second of two samples a moment apart
 * would find no CPU used). A thread's first native sample only sets the baseline. Used from the one thread that
 * reads the JFR stream.
 */
final class NativeSampleCpuFilter {
    /** Threads remembered at most; past this the table starts again (each thread's next sample sets a baseline). */
    static final int MAX_THREADS = 8192;
    /** How long a decision stands for the thread's next samples. */
    static final long DECISION_NANOS = 100_000_000L;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** Per thread: CPU time and wall time at its last decision, and the decision (1 running). */
    private final Map<Long, long[]> last = new HashMap<>();

    /**
     * @param javaThreadId the sampled thread's Java id
     * @param wallNanos    now, on any clock that moves with wall time
     * @return whether the thread was running rather than blocked in native code
     */
    boolean running(long javaThreadId, long wallNanos) {
        long[] seen = last.get(javaThreadId);
        if (seen != null && wallNanos - seen[1] < DECISION_NANOS) {
            return seen[2] == 1;
        }
        long cpu = threads.getThreadCpuTime(javaThreadId);
        if (cpu < 0) {
            return false;
        }
        if (seen == null) {
            if (last.size() >= MAX_THREADS) {
                last.clear();
            }
            last.put(javaThreadId, new long[] {cpu, wallNanos, 0});
            return false;
        }
        long used = cpu - seen[0];
        long elapsed = wallNanos - seen[1];
        seen[0] = cpu;
        seen[1] = wallNanos;
        seen[2] = elapsed > 0 && 2 * used >= elapsed ? 1 : 0;
        return seen[2] == 1;
    }
}
