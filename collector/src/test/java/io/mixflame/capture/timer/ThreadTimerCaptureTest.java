package io.mixflame.capture.timer;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import io.mixflame.capture.perf.PerfCaptureSettings;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.LibcLibrary;
import io.mixflame.process.linux.ProcThreadSelf;
import io.mixflame.process.linux.ProcThreadSource;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The in-thread capture in this JVM, on threads of the test's own: samples taken in the thread's signal handler stand
 * for the CPU time the kernel counted for it, carry its registers and stack, wait in the ring while the reader has no
 * room, count what a full ring refused, and stopping leaves no timer, no handler and no pending signal behind.
 */
class ThreadTimerCaptureTest {
    private static final long INTERVAL = 2_000_000L;
    private static final int SIGPROF = ThreadTimerCapture.SIGNAL;
    private final AtomicBoolean spinning = new AtomicBoolean(true);
    private ThreadTimerCapture capture;
    static volatile long sink;

    @AfterEach
    void stop() {
        spinning.set(false);
        if (capture != null) {
            capture.close();
        }
    }

    @Test
    void aBusyThreadsSamplesStandForTheCpuTimeTheKernelCounted() throws Exception {
        Spinner spinner = spin(false);
        ProcThreadSource kernel = new ProcThreadSource(OwnPid.get());
        long cpuBefore = kernel.cpuTimeNanos(spinner.tid);
        capture = start(spinner.tid, 16 * 1024, ThreadTimerCapture.MIN_RING_BYTES);
        Samples samples = new Samples(spinner.tid);
        // Until the spinner has stood for 500 intervals, whatever the machine's load.
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (samples.weight < 500 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            capture.drain(samples);
        }
        capture.close();
        long cpuAfter = kernel.cpuTimeNanos(spinner.tid);
        capture.drain(samples);
        assertThat(samples.weight).as("intervals sampled").isGreaterThanOrEqualTo(500);
        assertThat(samples.others).as("samples of threads without a timer").isZero();
        double expected = (cpuAfter - cpuBefore) / (double) INTERVAL;
        // The timer runs on the same clock as schedstat: only the intervals begun before the start and after the
        // stop separate them (and a tick's worth of expirations not yet delivered).
        assertThat((double) samples.weight).as("intervals against the kernel's %s", expected)
                .isBetween(expected * 0.97 - 4, expected * 1.01 + 1);
        // A shallow thread's copy ends where its stack's mapping does, short of the 16 KiB asked for.
        assertThat(samples.copies).as("samples with a stack copy from sp").isEqualTo(samples.count);
        assertThat(samples.badRegisters).as("samples without ip and sp").isZero();
        assertThat(capture.lost()).isZero();
        // After its first drain the thread's stack was found, and the handler copied it in place from then on.
        assertThat(capture.describe()).contains("1 threads sampled").contains("1 of them with stacks copied in place");
    }

    /**
     * Threads that run 2 ms in every 8: on a kernel whose tick is 4 ms (CONFIG_HZ=250) a burst falls between ticks at
     * one phase of the period, and the period keeps it there, so the kernel never sees such a thread's timer expire
     * (half the threads, at random). The capture signals them itself: each is sampled while it works in bursts, and
     * once they have run busy for a moment at the end, their samples stand for all the CPU time they used.
     */
    @Test
    void threadsTheKernelsTickNeverSeesAreSampledForTheirCpuTime() throws Exception {
        int n = 4;
        int[] tids = new int[n];
        long[] cpu = new long[n];
        long[] end = new long[n];
        ProcThreadSource kernel = new ProcThreadSource(OwnPid.get());
        CountDownLatch known = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean bursts = new AtomicBoolean(true);
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int index = i;
            threads[i] = new Thread(() -> {
                tids[index] = ProcThreadSelf.tid();
                known.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long x = 0;
                for (long period = System.nanoTime(); bursts.get(); period += 8_000_000L) {
                    while (System.nanoTime() - period < 2_000_000L) {
                        x += x * 31 + 7;
                    }
                    long sleep = period + 8_000_000L - System.nanoTime();
                    if (sleep > 0) {
                        LockSupport.parkNanos(sleep);
                    }
                }
                // Busy for 100 ms: running at ticks, the thread's last samples account for all it used.
                for (long start = System.nanoTime(); System.nanoTime() - start < 100_000_000L; ) {
                    x += x * 31 + 7;
                }
                sink = x;
                // The thread's own clock: schedstat, read while it runs, lacks the slice it is in.
                end[index] = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            }, "timer-test-burst-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        known.await();
        Samples[] samples = new Samples[n];
        for (int i = 0; i < n; i++) {
            samples[i] = new Samples(tids[i]);
            cpu[i] = kernel.cpuTimeNanos(tids[i]);
        }
        PerfCaptureSettings settings = new PerfCaptureSettings(OwnPid.get(), INTERVAL, 4096, 1, 16, false);
        capture = new ThreadTimerCapture(settings, new Threads(tids), ThreadTimerCapture.MIN_RING_BYTES);
        capture.start(new int[0]);
        Consumer<RawSample> each = s -> {
            for (Samples one : samples) {
                if (one.tid() == s.tid) {
                    one.accept(s);
                }
            }
        };
        go.countDown();
        // Until every thread has been sampled at work in its bursts (never, for some, without the capture's signals).
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (Arrays.stream(samples).anyMatch(one -> one.count < 3) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            capture.catchUp();
            capture.drain(each);
        }
        for (int i = 0; i < n; i++) {
            assertThat(samples[i].count).as("samples of thread %d in its bursts (%s)", i, capture.describe())
                    .isGreaterThanOrEqualTo(3);
        }
        bursts.set(false);
        for (Thread t : threads) {
            t.join(10_000);
        }
        capture.drain(each);
        capture.close();
        for (int i = 0; i < n; i++) {
            double owed = (end[i] - cpu[i]) / (double) INTERVAL;
            // Less what the thread used after its last sample: an interval and a 4-ms tick at most.
            assertThat((double) samples[i].weight).as("intervals sampled of thread %d against %s of its CPU (%s)", i,
                    owed, capture.describe()).isBetween(owed - 4, owed + 1);
        }
    }

    /** Draining the ring into reused samples, and asking the timers which are overdue, allocates nothing. */
    @Test
    void drainingAllocatesNothingInTheSteadyState() throws Exception {
        Spinner spinner = spin(false);
        capture = start(spinner.tid, 16 * 1024, ThreadTimerCapture.MIN_RING_BYTES);
        Samples samples = new Samples(spinner.tid);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)
                ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        long deadline = System.nanoTime() + 120_000_000_000L;
        // Warm: the drain's code compiled, the thread's stack found.
        while (samples.count < 1000 && System.nanoTime() < deadline) {
            Thread.sleep(5);
            capture.catchUp();
            capture.drain(samples);
        }
        int before = samples.count;
        long allocatedBefore = 0;
        long allocated = 0;
        while (samples.count - before < 600 && System.nanoTime() < deadline) {
            Thread.sleep(5);
            allocatedBefore = threads.getThreadAllocatedBytes(self);
            capture.catchUp();
            capture.drain(samples);
            allocated += threads.getThreadAllocatedBytes(self) - allocatedBefore;
        }
        assertThat(samples.count - before).as("samples drained after the warm-up").isGreaterThanOrEqualTo(600);
        assertThat(allocated).as("bytes allocated draining %s samples", samples.count - before).isZero();
    }

    @Test
    void closingRemovesEveryTimerTheHandlerAndPendingSignals() throws Exception {
        boolean caughtBefore = caught(SIGPROF);
        Spinner blocked = spin(true);
        capture = start(blocked.tid, 4096, ThreadTimerCapture.MIN_RING_BYTES);
        assertThat(timers()).as("timers while sampling").isEqualTo(1);
        assertThat(caught(SIGPROF)).as("the handler installed").isTrue();
        // The blocked thread's signal stays pending: nothing is taken, nothing breaks.
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!pending(blocked.tid, SIGPROF) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(pending(blocked.tid, SIGPROF)).as("a signal pending on the thread that blocks it").isTrue();
        assertThat(capture.drain(new Samples(blocked.tid))).as("samples of a thread blocking the signal").isZero();
        capture.close();
        assertThat(timers()).as("timers after the stop").isZero();
        assertThat(caught(SIGPROF)).as("the handler after the stop").isEqualTo(caughtBefore);
        assertThat(pending(blocked.tid, SIGPROF)).as("a signal still pending after the stop").isFalse();
        // Unblocked now: had a signal stayed pending, its default action would have ended this JVM here.
        blocked.unblock.countDown();
        blocked.thread.join(10_000);
        assertThat(blocked.unblocked.get()).as("the thread unblocked the signal and ended").isTrue();
    }

    @Test
    void aFullRingCountsWhatItRefusedAndASlowReaderLosesNothingItHeld() throws Exception {
        Spinner spinner = spin(false);
        // Three records of 16 KiB fit in 64 KiB.
        capture = start(spinner.tid, 16 * 1024, 64 * 1024);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (capture.lost() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(capture.lost()).as("samples refused by the full ring").isPositive();
        Samples samples = new Samples(spinner.tid);
        assertThat(capture.drain(samples, () -> false)).as("samples taken by a reader without room").isZero();
        int held = capture.drain(samples);
        assertThat(held).as("samples the full ring held for the reader").isBetween(1, 3);
        assertThat(samples.count).isEqualTo(held);
    }

    @Test
    void aSignalOfAnotherSenderIsPassedOnAndLeavesTheProcessRunning() throws Exception {
        Spinner spinner = spin(false);
        capture = start(spinner.tid, 4096, ThreadTimerCapture.MIN_RING_BYTES);
        // Nobody handled SIGPROF before: the default action would end the process; the sampler drops it.
        assertThat(Libc.kill((int) OwnPid.get(), SIGPROF)).isZero();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (capture.describe().indexOf("passed on") < 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(capture.describe()).contains("1 signals of other senders passed on");
    }

    private ThreadTimerCapture start(int tid, int stackBytes, long ringBytes) throws Exception {
        PerfCaptureSettings settings = new PerfCaptureSettings(OwnPid.get(), INTERVAL, stackBytes, 1, 16, false);
        ThreadTimerCapture c = new ThreadTimerCapture(settings, new Threads(new int[] {tid}), ringBytes);
        c.start(new int[0]);
        return c;
    }

    /** A thread that spins until the test ends, blocking SIGPROF first when asked. */
    private Spinner spin(boolean blockSignal) throws InterruptedException {
        Spinner s = new Spinner();
        CountDownLatch known = new CountDownLatch(1);
        s.thread = new Thread(() -> {
            s.tid = ProcThreadSelf.tid();
            if (blockSignal) {
                long[] set = new long[16];
                set[0] = 1L << (SIGPROF - 1);
                Libc.pthread_sigmask(0, set, null);
            }
            known.countDown();
            long x = 0;
            while (spinning.get() && (!blockSignal || s.unblock.getCount() > 0)) {
                x += x * 31 + 7;
            }
            sink = x;
            if (blockSignal) {
                long[] set = new long[16];
                set[0] = 1L << (SIGPROF - 1);
                Libc.pthread_sigmask(1, set, null);
                s.unblocked.set(true);
            }
        }, "timer-test-spinner");
        s.thread.setDaemon(true);
        s.thread.start();
        known.await();
        return s;
    }

    private static final class Spinner {
        volatile int tid;
        Thread thread;
        final CountDownLatch unblock = new CountDownLatch(1);
        final AtomicBoolean unblocked = new AtomicBoolean();
    }

    /** Counts the samples of one thread. */
    private static final class Samples implements Consumer<RawSample> {
        private final int tid;

        int tid() {
            return tid;
        }

        long weight;
        int count;
        int others;
        int copies;
        int badRegisters;

        Samples(int tid) {
            this.tid = tid;
        }

        @Override
        public void accept(RawSample s) {
            if (s.tid != tid) {
                others++;
                return;
            }
            count++;
            weight += s.weight;
            if (s.stackLength >= 512 && s.stackLength <= 16 * 1024) {
                copies++;
            }
            if (s.pc() == 0 || s.sp() == 0
                    || s.sp() % 8 != 0) {
                badRegisters++;
            }
        }
    }

    /** This process's timers that signal SIGPROF, from {@code /proc/self/timers}. */
    private static long timers() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/timers")).stream()
                .filter(l -> l.startsWith("signal: " + SIGPROF + "/")).count();
    }

    /** Whether the process has a handler for {@code signal} ({@code SigCgt}). */
    private static boolean caught(int signal) throws IOException {
        return bit(Path.of("/proc/self/status"), "SigCgt:", signal);
    }

    /** Whether {@code signal} is pending on thread {@code tid} itself ({@code SigPnd}). */
    private static boolean pending(int tid, int signal) throws IOException {
        return bit(Path.of("/proc/self/task/" + tid + "/status"), "SigPnd:", signal);
    }

    private static boolean bit(Path status, String field, int signal) throws IOException {
        List<String> lines = Files.readAllLines(status);
        for (String line : lines) {
            if (line.startsWith(field)) {
                long mask = Long.parseUnsignedLong(line.substring(field.length()).trim(), 16);
                return (mask & (1L << (signal - 1))) != 0;
            }
        }
        throw new IOException("no " + field + " in " + status);
    }

    /** A thread source of given threads. */
    private record Threads(int[] tids) implements ThreadSource {
        @Override
        public int count() {
            return tids.length;
        }

        @Override
        public int[] list() {
            return tids.clone();
        }

        @Override
        public String name(int t) {
            return "timer-test";
        }

        @Override
        public long cpuTimeNanos(int t) {
            return -1;
        }
    }

    private static final class Libc {
        static {
            Native.register(Libc.class, LibcLibrary.get());
        }

        static native int pthread_sigmask(int how, long[] set, long[] old);

        static native int kill(int pid, int signal);
    }
}
