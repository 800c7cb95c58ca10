package io.mixflame.examples.idle;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code idle}: many parked threads, the case where a wall-clock profiler's cost is all its own. After a warm-up
 * (the profiler's start-up and its code's compilation are not what a service that runs for days pays), the
 * process's CPU time is measured over a window: with nothing else running, it is what the profiler costs.
 */
public final class IdleWorkload {
    private IdleWorkload() {
    }

    /**
     * Parks {@code threads} threads, waits {@code warmUpSeconds}, then prints the process's CPU time over the next
     * {@code seconds}.
     */
    public static void run(int threads, int warmUpSeconds, int seconds) throws InterruptedException {
        Thread.currentThread().setName("idle-workload");
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(IdleWorkload::parkForever, "idle-" + i);
            t.setDaemon(true);
            t.start();
        }
        TimeUnit.SECONDS.sleep(warmUpSeconds);
        long cpuBefore = processCpuNanos();
        long start = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        long window = System.nanoTime() - start;
        long cpu = processCpuNanos() - cpuBefore;
        System.out.println("idle: " + threads + " threads, process CPU " + cpu / 1_000_000 + " ms over "
                + window / 1_000_000 + " ms after " + warmUpSeconds + " s warm-up");
    }

    private static void parkForever() {
        while (true) {
            LockSupport.park();
        }
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        throw new IllegalStateException("this JVM does not report its process CPU time");
    }
}
