package io.mixflame.examples.bench;

import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.capture.perf.PerfCapture;
import io.mixflame.capture.perf.PerfCaptureSettings;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The perf capture alone (no unwinding): N threads of this JVM burn CPU while one sampler thread drains their ring
 * buffers at every tick, as the engine's sampler does. For each interval, thread count and stack size it prints
 * samples per second, samples the kernel lost, the sampler's drain time per sample and per tick, and its CPU use.
 *
 * <pre>java -cp mixflame-examples.jar io.mixflame.examples.bench.CaptureBenchmark [seconds]</pre>
 */
public final class CaptureBenchmark {
    static volatile long sink;

    private CaptureBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        System.out.println("| interval | threads | stack bytes | samples/s | lost | lost % | drain µs/sample (mean)"
                + " | drain µs/tick p50 / p99 | sampler CPU % of one core |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (long intervalMs : new long[] {1, 10, 100}) {
            for (int threads : new int[] {2, 50, 500}) {
                run(intervalMs, threads, PerfCaptureSettings.DEFAULT_STACK_BYTES, seconds);
            }
        }
        for (int stack : new int[] {8 * 1024, 64 * 1024 - 8}) {
            run(10, 2, stack, seconds);
        }
    }

    private static void run(long intervalMs, int threadCount, int stackBytes, int seconds) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < threadCount; i++) {
            Thread t = new Thread(() -> burn(stop), "burner-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        Thread.sleep(200);
        long period = intervalMs * 1_000_000L;
        PerfCaptureSettings settings = new PerfCaptureSettings(ProcessHandle.current().pid(), period, stackBytes,
                PerfCaptureSettings.DEFAULT_DATA_PAGES, 2048, false);
        Histogram perTick = new Histogram(10_000_000_000L, 2);
        long drainNanos = 0;
        long cpuBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long start;
        long samples;
        long lost;
        try (PerfCapture capture = new PerfCapture(settings, new LinuxPerfSyscalls())) {
            capture.start();
            start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            long lastPoll = start;
            while (System.nanoTime() < end) {
                LockSupport.parkNanos(period);
                long t0 = System.nanoTime();
                capture.drain(s -> sink += s.tid);
                long t1 = System.nanoTime();
                perTick.recordValue(t1 - t0);
                drainNanos += t1 - t0;
                if (t1 - lastPoll > 50_000_000L) {
                    capture.refreshThreads();
                    lastPoll = System.nanoTime();
                }
            }
            samples = capture.samples();
            lost = capture.lost();
        }
        long elapsed = System.nanoTime() - start;
        long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuBefore;
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        System.out.printf(Locale.ROOT, "| %d ms | %d | %d | %.0f | %d | %.1f%% | %.2f | %.1f / %.1f | %.2f |%n", intervalMs,
                threadCount, stackBytes, samples * 1e9 / elapsed, lost, 100.0 * lost / Math.max(1, samples + lost),
                samples == 0 ? 0 : drainNanos / 1000.0 / samples, perTick.getValueAtPercentile(50) / 1000.0,
                perTick.getValueAtPercentile(99) / 1000.0, 100.0 * cpu / elapsed);
    }

    private static void burn(AtomicBoolean stop) {
        long x = 1;
        while (!stop.get()) {
            for (int i = 0; i < 10_000; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            sink = x;
        }
    }
}
