package io.mixflame.testapp;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A service's pool of worker threads: {@code workers} threads, started in ten bursts, each named
 * {@code service-pool-worker-N} (longer than the kernel's 15-character names), wait until all have started, then each
 * works alike for the seconds given: a burst of CPU of {@code burnMicros}, then a sleep of {@code sleepMillis}, so that
 * most of them are asleep at any moment and together they keep the machine's cores about as busy as the arguments
 * say. Prints {@code started} when all work, {@code done} at the end.
 *
 * <p>Arguments: workers, seconds, burnMicros, sleepMillis, and optionally busy: that many more threads
 * ({@code service-busy-N}) that burn CPU without sleeping, as a service's few hot threads do; and optionally
 * {@code alloc}: the bursts allocate as they burn (short-lived arrays, and a ring of objects kept a while), so that a
 * small heap collects many times a second and the JVM stops its threads at safepoints as often; or {@code half}: the
 * odd workers' bursts allocate so, and those workers are named {@code service-pool-allocator-N} instead. It prints
 * the collections the JVM made while the workers worked ({@code gc N}).
 *
 * <p>At the end it prints for each thread its CPU time while it worked ({@code cpu NAME NANOS}), and over its whole
 * life from its start ({@code life NAME LIFE ONCPU RUNQUEUE WAITED}, nanoseconds: its wall time, of that its time on
 * a CPU and waiting for one as its schedstat counted, and the time it spent in its waits, the start's latch and its
 * sleeps, by its own clock from call to return), the truth a wall-clock profile's states are judged by.
 */
public final class ServicePoolApp {
    static volatile long sink;
    /** Objects the allocating bursts keep for a while, so that some survive a young collection. */
    private static final Object[] KEPT = new Object[4096];
    /** Whether every worker allocates ({@code alloc}), or the odd ones ({@code half}). */
    private static boolean allocating;
    private static boolean halfAllocating;

    private ServicePoolApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        int workers = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        long burnNanos = Long.parseLong(args[2]) * 1000;
        long sleepMillis = Long.parseLong(args[3]);
        int busy = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        allocating = args.length > 5 && args[5].equals("alloc");
        halfAllocating = args.length > 5 && args[5].equals("half");
        CountDownLatch go = new CountDownLatch(1);
        long[] end = new long[1];
        List<Thread> threads = new ArrayList<>();
        long[] cpu = new long[workers + busy];
        long[][] life = new long[workers + busy][];
        for (int burst = 0; burst < 10; burst++) {
            for (int i = burst * workers / 10; i < (burst + 1) * workers / 10; i++) {
                int index = i;
                Thread t = new Thread(() -> work(go, end, burnNanos, sleepMillis, cpu, life, index,
                        allocating || halfAllocating && index % 2 == 1),
                        name(i, workers));
                t.start();
                threads.add(t);
            }
            Thread.sleep(20);
        }
        for (int i = 0; i < busy; i++) {
            int index = workers + i;
            Thread t = new Thread(() -> work(go, end, Long.MAX_VALUE / 4, 0, cpu, life, index, false),
                    "service-busy-" + i);
            t.start();
            threads.add(t);
        }
        end[0] = System.nanoTime() + seconds * 1_000_000_000L;
        long collections = collections();
        go.countDown();
        System.out.println("started");
        System.out.flush();
        for (Thread t : threads) {
            t.join();
        }
        collections = collections() - collections;
        // What the kernel counted for each thread while it worked: the truth a profile's shares are judged by.
        StringBuilder counted = new StringBuilder();
        for (int i = 0; i < cpu.length; i++) {
            String name = name(i, workers);
            counted.append("cpu ").append(name).append(' ').append(cpu[i]).append('\n');
            if (life[i] != null) {
                counted.append("life ").append(name).append(' ').append(life[i][0]).append(' ').append(life[i][1])
                        .append(' ').append(life[i][2]).append(' ').append(life[i][3]).append('\n');
            }
        }
        counted.append("gc ").append(collections).append('\n');
        System.out.print(counted);
        System.out.println("done");
    }

    /** The name of thread {@code i}: a worker, an allocating worker or one of the busy threads after them. */
    private static String name(int i, int workers) {
        if (i >= workers) {
            return "service-busy-" + (i - workers);
        }
        return (halfAllocating && i % 2 == 1 ? "service-pool-allocator-" : "service-pool-worker-") + i;
    }

    /** The collections every collector of this JVM has made so far. */
    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static void work(CountDownLatch go, long[] end, long burnNanos, long sleepMillis, long[] cpu,
                             long[][] life, int index, boolean allocates) {
        long born = System.nanoTime();
        long[] before = ThreadCpu.runningAndWaiting();
        long waited = 0;
        try {
            go.await();
            waited += System.nanoTime() - born;
            long cpuStart = ThreadCpu.nanos();
            long x = 0;
            while (System.nanoTime() < end[0]) {
                long start = System.nanoTime();
                while (System.nanoTime() - start < burnNanos && System.nanoTime() < end[0]) {
                    x = allocates ? burnAllocating(x) : burn(x);
                }
                sink = x;
                long asleep = System.nanoTime();
                Thread.sleep(sleepMillis);
                waited += System.nanoTime() - asleep;
            }
            cpu[index] = ThreadCpu.nanos() - cpuStart;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long[] after = ThreadCpu.runningAndWaiting();
        if (before[0] >= 0 && after[0] >= 0) {
            life[index] = new long[] {System.nanoTime() - born, after[0] - before[0], after[1] - before[1], waited};
        }
    }

    static long burnAllocating(long x) {
        long[] scratch = new long[64 + (int) (x & 63)];
        for (int i = 0; i < scratch.length; i++) {
            scratch[i] = x;
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        KEPT[(int) (x >>> 52)] = new long[(int) (x >>> 58) + 1];
        return x + scratch[(int) (x & 63)];
    }

    static long burn(long x) {
        for (int i = 0; i < 200; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
