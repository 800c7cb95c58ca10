package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryMapping;
import io.mixflame.process.linux.ProcMaps;
import io.mixflame.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** perf_events capture of a child JVM's threads, from outside (the target pid is a parameter). */
class PerfCaptureLiveTest {

    @Test
    void twoBusyThreadsGiveAHundredSamplesPerCpuSecondEachWithRegistersAndStack() throws Exception {
        try (ChildProcess app = ChildProcess.java(Path.of(System.getProperty("java.home")), List.of(),
                "io.mixflame.testapp.BurnersApp", "two");
             PerfCapture capture = new PerfCapture(PerfCaptureSettings.defaults(app.pid(), 10_000_000L),
                     new LinuxPerfSyscalls())) {
            app.readUntil("ready");
            capture.start();
            app.send("go");
            Thread.sleep(60);
            capture.refreshThreads();
            Map<String, Integer> tids = new HashMap<>();
            List<String> lines = app.readUntil("tid mf-burn-");
            lines.addAll(app.readUntil("tid mf-burn-"));
            for (String l : lines) {
                if (l.startsWith("tid ")) {
                    String[] f = l.split(" ");
                    tids.put(f[1], Integer.parseInt(f[2]));
                }
            }
            List<MemoryMapping> maps = ProcMaps.read(app.pid());
            Map<Integer, Integer> samples = new HashMap<>();
            int[] bad = new int[3];
            // The burners stop at 3 s of their own CPU time, however long a busy machine takes to give it them: the
            // deadline only bounds a run that hangs.
            long deadline = System.nanoTime() + 180_000_000_000L;
            Thread waiter = new Thread(() -> {
                try {
                    app.readUntil("done");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            waiter.start();
            while (waiter.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
                capture.drain(s -> count(s, samples, bad, maps));
                capture.refreshThreads();
                if (!outside.isEmpty()) {
                    // Code the JIT placed after the maps were read: check those ips against the maps as they are now.
                    try {
                        List<MemoryMapping> now = ProcMaps.read(app.pid());
                        outside.removeIf(ip -> now.stream().anyMatch(m -> m.executable() && m.contains(ip)));
                    } catch (java.io.IOException e) {
                        break;
                    }
                }
            }
            capture.drain(s -> count(s, samples, bad, maps));
            bad[2] = outside.size();
            assertThat(bad[0]).as("samples without registers").isZero();
            assertThat(bad[1]).as("samples without stack bytes").isZero();
            assertThat(bad[2]).as("samples with an ip outside executable mappings").isZero();
            assertThat(samples.get(tids.get("mf-burn-a"))).as("samples of mf-burn-a").isBetween(250, 350);
            assertThat(samples.get(tids.get("mf-burn-b"))).as("samples of mf-burn-b").isBetween(250, 350);
            assertThat(capture.lost()).isZero();
        }
    }

    private final List<Long> outside = new java.util.ArrayList<>();

    private void count(RawSample s, Map<Integer, Integer> samples, int[] bad, List<MemoryMapping> maps) {
        samples.merge(s.tid, 1, Integer::sum);
        if (!s.hasRegisters) {
            bad[0]++;
            return;
        }
        if (s.stackLength <= 0) {
            bad[1]++;
        }
        long ip = s.pc();
        if (maps.stream().noneMatch(m -> m.executable() && m.contains(ip))) {
            outside.add(ip);
        }
    }

    @Test
    void threadsStartedAfterProfilingBeganAreSampled() throws Exception {
        try (ChildProcess app = ChildProcess.java(Path.of(System.getProperty("java.home")), List.of(),
                "io.mixflame.testapp.BurnersApp", "churn");
             PerfCapture capture = new PerfCapture(PerfCaptureSettings.defaults(app.pid(), 10_000_000L),
                     new LinuxPerfSyscalls())) {
            app.readUntil("ready");
            capture.start();
            Set<Integer> before = new HashSet<>();
            capture.drain(s -> before.add(s.tid));
            app.send("go");
            Set<Integer> sampled = new HashSet<>();
            Set<Integer> churned = new HashSet<>();
            Thread reader = new Thread(() -> {
                try {
                    for (String l : app.readUntil("done")) {
                        if (l.startsWith("tid mf-churn-")) {
                            synchronized (churned) {
                                churned.add(Integer.parseInt(l.split(" ")[2]));
                            }
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            reader.start();
            long lastPoll = System.nanoTime();
            while (reader.isAlive()) {
                Thread.sleep(10);
                capture.drain(s -> sampled.add(s.tid));
                if (System.nanoTime() - lastPoll > 50_000_000L) {
                    capture.refreshThreads();
                    lastPoll = System.nanoTime();
                }
            }
            capture.drain(s -> sampled.add(s.tid));
            synchronized (churned) {
                assertThat(churned).hasSize(200);
                Set<Integer> newlySampled = new HashSet<>(churned);
                newlySampled.retainAll(sampled);
                assertThat(newlySampled).as("threads started after profiling began, sampled").hasSizeGreaterThan(150);
            }
            assertThat(capture.threads()).as("events of ended threads are closed").isLessThan(60);
        }
    }
}
