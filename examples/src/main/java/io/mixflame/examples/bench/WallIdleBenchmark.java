package io.mixflame.examples.bench;

import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.wall.ThreadState;
import io.mixflame.engine.wall.WallEngine;
import io.mixflame.profile.ProfileAccumulator;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * The wall-clock engine's cost with many idle threads: this JVM parks N threads, then samples itself at the default
 * 20 ms for the given time; the sampler thread's CPU time over the run is the cost. The count starts after a warm-up
 * (modules read, the sampler's code JIT-compiled), since a continuous profiler runs for hours.
 *
 * <pre>java -cp mixflame-examples.jar io.mixflame.examples.bench.WallIdleBenchmark [threads] [seconds] [warm-up seconds]</pre>
 */
public final class WallIdleBenchmark {
    private WallIdleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        List<Thread> idle = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread t = new Thread(() -> LockSupport.park(), "idle-" + i);
            t.setDaemon(true);
            t.start();
            idle.add(t);
        }
        Thread.sleep(500);
        ProfileAccumulator profile = new ProfileAccumulator();
        WallEngine engine = new WallEngine(ProcessHandle.current().pid(), new LinuxPerfSyscalls(),
                EnumSet.allOf(ThreadState.class));
        long interval = 20_000_000L;
        engine.start(new SamplingSettings(ProfilingEvent.WALL, interval, false), profile);
        Thread.sleep(warmUp * 1000L);
        Thread sampler = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("mixflame-wall-sampler")).findFirst().orElseThrow();
        var mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getThreadCpuTime(sampler.getId());
        long samples0 = profile.totalSamples();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long cpu1 = mx.getThreadCpuTime(sampler.getId());
        long samples1 = profile.totalSamples();
        long t1 = System.nanoTime();
        engine.stop();
        System.out.printf(Locale.ROOT, "| %d idle threads | %d ms interval | %d s | %.0f samples/s | sampler %.2f%% of one"
                + " core | %.1f µs per thread sample |%n", count, interval / 1_000_000, seconds,
                (samples1 - samples0) * 1e9 / (t1 - t0), 100.0 * (cpu1 - cpu0) / (t1 - t0),
                (cpu1 - cpu0) / 1000.0 / Math.max(1, samples1 - samples0));
        System.out.println(engine.costNotes());
    }
}
