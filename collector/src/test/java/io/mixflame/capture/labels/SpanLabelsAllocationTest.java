package io.mixflame.capture.labels;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Spans cost no allocation per sample: with spans recorded and none current (no OpenTelemetry in the JVM), and with
 * a span current that the sampler has seen before, labelling a sample leaves the thread's allocated bytes where they
 * were; so does a thread going back and forth between two spans it has made current before. An object a sample
 * would add at least 16 bytes a sample.
 */
class SpanLabelsAllocationTest {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 100_000;
    private static final Frame[] STACK = {Frame.thread("worker", 77),
            Frame.java("app.Handler", "handle", FrameType.JIT_COMPILED)};

    private final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void labellingSamplesWithAndWithoutASpanAllocatesNothing() {
        LabelRecorder recorder = new LabelRecorder(new LabelSets(64), new LabelLog(8), () -> 77);
        recorder.recordSpans(true, 100, true, true);
        SampleLabels samples = new SampleLabels(recorder);
        recorder.enter("tenant", "acme");

        assertThat(bytesPerSample(samples)).as("bytes a sample, no span current").isLessThan(1.0);

        Object parent = new Object();
        Object child = new Object();
        recorder.spanCurrent(parent, 1, 2, 3, 3, "GET", "GET /inline");
        recorder.spanCurrent(child, 1, 2, 4, 3, "GET", "GET /inline");
        assertThat(bytesPerSample(samples)).as("bytes a sample, in a span seen before").isLessThan(1.0);
        assertThat(names(samples)).contains("[span_id=0000000000000003]");

        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < MEASURED; i++) {
            recorder.spanCurrent(recorder.knownSpan(i % 2 == 0 ? parent : child));
        }
        long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertThat((double) allocated / MEASURED).as("bytes a change between two spans made current before")
                .isLessThan(1.0);
    }

    private double bytesPerSample(SampleLabels samples) {
        for (int i = 0; i < WARM_UP; i++) {
            samples.label(77, System.nanoTime(), STACK, 2, true);
        }
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < MEASURED; i++) {
            samples.label(77, System.nanoTime(), STACK, 2, true);
        }
        return (double) (threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / MEASURED;
    }

    private static java.util.List<String> names(SampleLabels samples) {
        int depth = samples.label(77, System.nanoTime(), STACK, 2, true);
        java.util.List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < depth; i++) {
            names.add(samples.frames()[i].name());
        }
        return names;
    }
}
