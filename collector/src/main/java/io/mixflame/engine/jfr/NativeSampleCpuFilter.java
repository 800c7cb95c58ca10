package io.mixflame.engine.jfr;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * Tells a thread JFR found in a native method that was running there from one blocked there (in a read, a poll):
 * JFR's native-method samples take both alike, and a CPU profile wants only the first. A thread counts when it used
 * at least half of the wall time since its previous native sample on a CPU. Its first native sample only sets the
 * baseline. Used from the one thread that reads the JFR stream.
 */
final class NativeSampleCpuFilter {
    /** Threads remembered at most; past this the table starts again (each thread's next sample sets a baseline). */
    static final int MAX_THREADS = 8192;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<Long, long[]> last = new HashMap<>();

    /**
     * @param javaThreadId the sampled thread's Java id
     * @param wallNanos    the sample's time, on any clock that moves with wall time
     * @return whether the thread was running rather than blocked in native code
     */
    boolean running(long javaThreadId, long wallNanos) {
        long cpu = threads.getThreadCpuTime(javaThreadId);
        if (cpu < 0) {
            return false;
        }
        long[] seen = last.get(javaThreadId);
        if (seen == null) {
            if (last.size() >= MAX_THREADS) {
                last.clear();
            }
            last.put(javaThreadId, new long[] {cpu, wallNanos});
            return false;
        }
        long used = cpu - seen[0];
        long elapsed = wallNanos - seen[1];
        seen[0] = cpu;
        seen[1] = wallNanos;
        return elapsed > 0 && 2 * used >= elapsed;
    }
}
