package io.mixflame.engine.suspend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.capture.CaptureMethod;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.ThreadCapture;
import io.mixflame.capture.ThreadCaptureException;
import io.mixflame.capture.x64.X64Registers;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.image.FixedModuleMap;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.platform.TargetProcess;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.ThreadSource;
import io.mixflame.profile.Frame;
import io.mixflame.profile.SampleSink;
import io.mixflame.testsupport.FakeProcessMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The suspend engine's choice of threads over a fake process: with {@code event=cpu} only threads that used a whole
 * interval of CPU since they were last counted are captured, each sample counting the whole intervals used and
 * weighted by as many; with {@code event=wall} every thread, counted once and weighted by the interval; a thread that
 * cannot be captured is counted, not sampled; ended threads are released.
 */
class SuspendEngineTest {
    private static final long INTERVAL = 2_000_000L;
    /**
     * Thread 11 runs (1 ms of CPU per look, half an interval), 12 waits (no growth), 13 cannot be read, 14 cannot be
     * captured; 15 uses a whole interval of CPU per look and 16 a quarter of one.
     */
    private static final int BUSY = 11;
    private static final int IDLE = 12;
    private static final int UNREADABLE = 13;
    private static final int UNCAPTURABLE = 14;
    private static final int FULL = 15;
    private static final int QUARTER = 16;

    private final FakeThreads threads = new FakeThreads();
    private final FakeCapture capture = new FakeCapture();
    private final FakeTarget target = new FakeTarget();

    @Test
    void cpuSamplesOnlyThreadsWhoseCpuTimeGrewCountedInWholeIntervals() throws Exception {
        Map<String, long[]> byThread = run(ProfilingEvent.CPU);

        assertThat(byThread).containsOnlyKeys("busy");
        long[] busy = byThread.get("busy");
        long looks = threads.busyCpu.get() / 1_000_000L;
        assertThat(busy[0]).as("intervals counted for the busy thread: 1 ms a look after its first, in 2 ms intervals")
                .isEqualTo((looks - 1) / 2).isGreaterThan(2);
        assertThat(capture.captured.get(BUSY)).as("stopped once a whole interval, every other look")
                .isEqualTo((int) busy[0]);
        assertThat(busy[1]).as("their weight: an interval each").isEqualTo(busy[0] * INTERVAL);
        assertThat(capture.captured).as("threads captured").containsOnlyKeys(BUSY);
    }

    /**
     * A thread that uses a whole interval of CPU at every look is counted four times as often as one that uses a
     * quarter: outputs that show counts (flame graphs, collapsed stacks) show each thread's share of the CPU.
     */
    @Test
    void cpuCountsAreInProportionToTheCpuEachThreadUsed() throws Exception {
        threads.alive = new int[] {FULL, QUARTER};
        SuspendEngine engine = new SuspendEngine(target);
        Map<String, long[]> byThread = new ConcurrentHashMap<>();
        engine.start(new SamplingSettings(ProfilingEvent.CPU, INTERVAL, true), sinkInto(byThread));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (threads.quarterCpu.get() < 40 * (INTERVAL / 4) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        engine.stop();

        // Counted from each thread's own looks, which the engine made: the same whatever the pace of its ticks.
        long fullLooks = threads.fullCpu.get() / INTERVAL;
        long quarterLooks = threads.quarterCpu.get() / (INTERVAL / 4);
        assertThat(quarterLooks).as("looks at the quarter thread").isGreaterThanOrEqualTo(40);
        long[] full = byThread.get("full");
        long[] quarter = byThread.get("quarter");
        assertThat(full[0]).as("intervals counted for the thread busy all the time").isEqualTo(fullLooks - 1);
        assertThat(quarter[0]).as("intervals counted for the thread busy a quarter of the time")
                .isEqualTo((quarterLooks - 1) / 4);
        assertThat(full[0]).as("four times the quarter's, give or take a look")
                .isBetween(4 * quarter[0] - 4, 4 * quarter[0] + 4);
        assertThat(full[1]).isEqualTo(full[0] * INTERVAL);
        assertThat(quarter[1]).isEqualTo(quarter[0] * INTERVAL);
        // Each look finds at most one whole interval here, so no sample stands for more than one.
        assertThat(engine.costNotes().get(0)).as("the cost note").contains(", standing for " + (full[0] + quarter[0])
                + " intervals of CPU (at most 1 in one, 1.00 in an interval's sample on average)");
    }

    /** A thread that used several intervals between two looks is sampled once for all of them, and the note says so. */
    @Test
    void samplesStandingForSeveralIntervalsAreSaid() throws Exception {
        threads.alive = new int[] {FULL};
        threads.fullStep = 3 * INTERVAL;
        SuspendEngine engine = new SuspendEngine(target);
        Map<String, long[]> byThread = run(ProfilingEvent.CPU, engine);
        long[] full = byThread.get("full");
        assertThat(full[0]).as("intervals counted").isPositive().isEqualTo(3 * capture.captured.get(FULL));
        assertThat(engine.costNotes().get(0)).as("the cost note")
                .contains(capture.captured.get(FULL) + " samples, ")
                .contains(", standing for " + full[0] + " intervals of CPU (at most 3 in one, 3.00 in an interval's sample on average)");
    }

    @Test
    void wallSamplesEveryThreadThatCanBeCapturedWeightedByTheInterval() throws Exception {
        SuspendEngine engine = new SuspendEngine(target);
        Map<String, long[]> byThread = run(ProfilingEvent.WALL, engine);

        assertThat(byThread).containsOnlyKeys("busy", "idle", "unreadable");
        for (long[] counts : byThread.values()) {
            assertThat(counts[1]).isEqualTo(counts[0] * INTERVAL);
        }
        assertThat(capture.captured).containsKey(UNCAPTURABLE);
        assertThat(engine.costNotes().get(0)).containsPattern("[1-9]\\d* failed captures");
        assertThat(engine.costNotes()).anyMatch(n -> n.startsWith("threads stopped"));
        assertThat(engine.costNotes()).as("the reads of the target's memory each sample made")
                .anyMatch(n -> n.matches("\\d+ reads p50 / [\\d.]+ mean per sample.*"));
    }

    @Test
    void threadsThatEndedAreReleasedAtTheNextListing() throws Exception {
        threads.alive = new int[] {BUSY, IDLE};
        run(ProfilingEvent.CPU);
        assertThat(capture.retained).as("what the capture was told to keep").containsExactly(BUSY, IDLE);
    }

    @Test
    void refusesToStopThreadsOfItsOwnProcess() {
        target.pid = ProcessHandle.current().pid();
        assertThatThrownBy(() -> new SuspendEngine(target).start(
                new SamplingSettings(ProfilingEvent.CPU, INTERVAL, true), (f, d, s, w) -> { }))
                .isInstanceOf(EngineUnavailableException.class).hasMessageContaining("another process");
    }

    private Map<String, long[]> run(ProfilingEvent event) throws Exception {
        return run(event, new SuspendEngine(target));
    }

    /** Samples until the capture was asked for a few stacks, however slowly a busy machine runs the sampler. */
    private Map<String, long[]> run(ProfilingEvent event, SuspendEngine engine) throws Exception {
        Map<String, long[]> byThread = new ConcurrentHashMap<>();
        engine.start(new SamplingSettings(event, INTERVAL, true), sinkInto(byThread));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (capture.captured.values().stream().mapToInt(Integer::intValue).sum() < 4
                && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        engine.stop();
        return byThread;
    }

    /** A sink that adds up, by thread name, the samples counted ([0]) and their weight ([1]). */
    private static SampleSink sinkInto(Map<String, long[]> byThread) {
        return (rootFirst, depth, samples, weight) -> {
            long[] c = byThread.computeIfAbsent(rootFirst[0].name().replaceFirst(" tid=.*", "")
                    .replaceFirst("^\\[", ""), k -> new long[2]);
            c[0] += samples;
            c[1] += weight;
        };
    }

    private static final class FakeThreads implements ThreadSource {
        int[] alive = {BUSY, IDLE, UNREADABLE, UNCAPTURABLE};
        final AtomicLong busyCpu = new AtomicLong();
        final AtomicLong fullCpu = new AtomicLong();
        /** The CPU the full thread used between two looks. */
        volatile long fullStep = INTERVAL;
        final AtomicLong quarterCpu = new AtomicLong();

        @Override
        public int count() {
            return alive.length;
        }

        @Override
        public int[] list() {
            return alive.clone();
        }

        @Override
        public String name(int tid) {
            return switch (tid) {
                case BUSY -> "busy";
                case IDLE -> "idle";
                case UNREADABLE -> "unreadable";
                case FULL -> "full";
                case QUARTER -> "quarter";
                default -> "uncapturable";
            };
        }

        @Override
        public long cpuTimeNanos(int tid) {
            return switch (tid) {
                case BUSY -> busyCpu.addAndGet(1_000_000L);
                case IDLE -> 5_000_000L;
                case UNREADABLE -> -1;
                case FULL -> fullCpu.addAndGet(fullStep);
                case QUARTER -> quarterCpu.addAndGet(INTERVAL / 4);
                default -> 7_000_000L;
            };
        }
    }

    private static final class FakeCapture implements ThreadCapture {
        /** Written by the sampler thread, read by the test's. */
        final Map<Integer, Integer> captured = new ConcurrentHashMap<>();
        List<Integer> retained = List.of();

        @Override
        public CaptureMethod capture(int tid, CapturedThread out) throws ThreadCaptureException {
            captured.merge(tid, 1, Integer::sum);
            if (tid == UNCAPTURABLE) {
                throw new ThreadCaptureException("thread " + tid + " cannot be suspended");
            }
            out.clear(tid, System.nanoTime());
            out.setRegister(X64Registers.RIP, 0x1000);
            out.setRegister(X64Registers.RSP, 0x7000_0000L);
            out.setPausedNanos(40_000);
            return CaptureMethod.SUSPENDED;
        }

        @Override
        public void retainOnly(int[] alive, int n) {
            List<Integer> kept = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                kept.add(alive[i]);
            }
            retained = kept;
        }
    }

    private final class FakeTarget implements TargetProcess {
        final ProcessMemory memory = new FakeProcessMemory();
        final ModuleMap modules = new FixedModuleMap(new ModuleSnapshot(List.of(), List.of()), "jvm.dll");
        long pid = Long.MAX_VALUE;

        @Override
        public long pid() {
            return pid;
        }

        @Override
        public ProcessMemory memory() {
            return memory;
        }

        @Override
        public ModuleMap modules() {
            return modules;
        }

        @Override
        public ThreadSource threads() {
            return threads;
        }

        @Override
        public ThreadCapture threadCapture(int stackBytes) {
            return capture;
        }

        @Override
        public void close() {
        }
    }
}
