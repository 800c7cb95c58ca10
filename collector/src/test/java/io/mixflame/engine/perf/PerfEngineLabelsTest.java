package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.labels.LabelLog;
import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.capture.labels.LabelSets;
import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.process.linux.ProcThreadSelf;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.SampleSink;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Labels of samples the walker reaches late: this JVM's own perf engine, its walker held up for two seconds by its
 * first sample's sink, while a thread changes its labels far more often than its log keeps (256 changes in about
 * 128 ms here). Looked up when walked, the samples of those two seconds would all be {@code [labels=unknown]}; looked
 * up as they are drained, they carry the set the thread had.
 */
class PerfEngineLabelsTest {
    private static final long STALL_MILLIS = 2_000;
    private static final long NEEDED = 500;

    private volatile boolean working = true;

    @Test
    void samplesWalkedLongAfterTheyWereTakenCarryTheLabelsOfTheirTime() throws Exception {
        LabelRecorder recorder = new LabelRecorder(new LabelSets(64), new LabelLog(8), new ProcThreadSelf());
        Thread worker = new Thread(() -> workUnder(recorder), "labelled-worker");
        worker.setDaemon(true);
        worker.start();
        Counting sink = new Counting();
        PerfEngine engine = new PerfEngine(ProcessHandle.current().pid(), new LinuxPerfSyscalls());
        long deadline = System.nanoTime() + 120_000_000_000L;
        try {
            engine.start(new SamplingSettings(ProfilingEvent.CPU, 1_000_000L, false, false, false, recorder), sink);
            while (sink.labelled() < NEEDED && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            working = false;
            engine.stop();
            worker.join(10_000);
        }
        assertThat(sink.labelled()).as("samples of the labelled thread within two minutes").isGreaterThanOrEqualTo(
                NEEDED);
        // The phase's gaps (between leaving it and entering it again, a few instructions every millisecond) may hold
        // a sample now and then; none is left unknown.
        assertThat(sink.unknown.get()).as("of %d samples of the labelled thread, those labelled unknown (notes: %s)",
                sink.labelled(), engine.costNotes()).isZero();
        assertThat(sink.inPhase.get()).as("of %d samples of the labelled thread, those in its phase",
                sink.labelled()).isGreaterThanOrEqualTo(sink.labelled() * 99 / 100);
    }

    /** In phase {@code a} all along, but for a moment every millisecond: two changes a millisecond. */
    private void workUnder(LabelRecorder recorder) {
        long token = recorder.enter("phase", "a");
        long x = 1;
        while (working) {
            long until = System.nanoTime() + 1_000_000L;
            while (System.nanoTime() < until) {
                for (int i = 0; i < 1000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }
            recorder.exit(token);
            token = recorder.enter("phase", "a");
        }
        recorder.exit(token);
        if (x == 42) {
            System.out.println(x);
        }
    }

    /** Counts label frames; holds the walker up at its first sample. */
    private static final class Counting implements SampleSink {
        final AtomicLong inPhase = new AtomicLong();
        final AtomicLong unknown = new AtomicLong();
        final AtomicLong other = new AtomicLong();
        private boolean stalled;

        @Override
        public void add(Frame[] rootFirst, int depth, long samples, long weightNanos) {
            if (!stalled) {
                stalled = true;
                try {
                    Thread.sleep(STALL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            for (int i = 0; i < depth; i++) {
                Frame f = rootFirst[i];
                if (f.type() == FrameType.LABEL) {
                    String name = f.name();
                    (name.equals("[phase=a]") ? inPhase : name.equals("[labels=unknown]") ? unknown : other)
                            .addAndGet(samples);
                    break;
                }
            }
        }

        long labelled() {
            return inPhase.get() + unknown.get() + other.get();
        }
    }
}
