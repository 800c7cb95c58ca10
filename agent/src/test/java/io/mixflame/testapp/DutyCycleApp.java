package io.mixflame.testapp;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Threads that want the CPU for given shares of their time: {@code duty-P} is busy P% of each period and asleep the
 * rest (100 never sleeps). Periods last 5 to 11 ms at random: a thread whose period were a multiple of the scheduler's
 * tick would keep its bursts at one phase of it, and a burst shorter than a tick could then fall between ticks every
 * time, where a CPU timer, checked at ticks, never sees it (as real work, whose bursts drift, is not). Prints {@code started} once all run, then at the end each thread's CPU time as the
 * kernel counted it ({@code cpu duty-P NANOS}) and {@code done}.
 *
 * <p>Arguments: seconds, then the duty cycles in percent (for example {@code 6 100 50 25}).
 */
public final class DutyCycleApp {
    private static final long SHORTEST_PERIOD_NANOS = 5_000_000L;
    private static final long PERIOD_SPREAD_NANOS = 6_000_000L;
    static volatile long sink;

    private DutyCycleApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = Long.parseLong(args[0]);
        int n = args.length - 1;
        long[] cpu = new long[n];
        Thread[] threads = new Thread[n];
        CountDownLatch go = new CountDownLatch(1);
        long[] end = new long[1];
        for (int i = 0; i < n; i++) {
            int index = i;
            int duty = Integer.parseInt(args[i + 1]);
            threads[i] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long start = ThreadCpu.nanos();
                run(duty, end[0]);
                cpu[index] = ThreadCpu.nanos() - start;
            }, "duty-" + duty);
            threads[i].start();
        }
        // The threads have started, and the profiler's thread poll has seen them, before they work.
        Thread.sleep(200);
        end[0] = System.nanoTime() + seconds * 1_000_000_000L;
        go.countDown();
        System.out.println("started");
        System.out.flush();
        for (Thread t : threads) {
            t.join();
        }
        StringBuilder counted = new StringBuilder();
        for (int i = 0; i < n; i++) {
            counted.append("cpu ").append(threads[i].getName()).append(' ').append(cpu[i]).append('\n');
        }
        System.out.print(counted);
        System.out.println("done");
    }

    /** Busy {@code duty}% of each period until {@code end}. */
    private static void run(int duty, long end) {
        SplittableRandom random = new SplittableRandom(duty);
        long x = 0;
        for (long start = System.nanoTime(); start < end; ) {
            long period = SHORTEST_PERIOD_NANOS + random.nextLong(PERIOD_SPREAD_NANOS);
            long busy = period * duty / 100;
            while (System.nanoTime() - start < busy) {
                x = ServicePoolApp.burn(x);
            }
            start += period;
            long sleep = start - System.nanoTime();
            if (duty < 100 && sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
        sink = x;
    }
}
