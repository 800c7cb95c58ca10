package io.mixflame.capture.labels;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spans made current by a thread, on the samples taken while they were, beside its labels; bounded per period. */
class SpanLabelsTest {
    private static final Frame THREAD = Frame.thread("worker", 77);
    private static final Frame METHOD = Frame.java("app.Handler", "handle", FrameType.JIT_COMPILED);
    private static final long TRACE_HIGH = 0x0af7651916cd43ddL;
    private static final long TRACE_LOW = 0x8448eb211c80319cL;

    private final LabelRecorder recorder = new LabelRecorder(new LabelSets(64), new LabelLog(8), () -> 77);

    @Test
    void samplesCarryTheSpanCurrentWhenTheyWereTakenWithTheirLabels() {
        recorder.recordSpans(false, 100, true, false);
        SampleLabels samples = new SampleLabels(recorder);
        Object root = new Object();
        Object child = new Object();
        long before = System.nanoTime();
        long token = recorder.enter("tenant", "acme");
        recorder.spanCurrent(root, TRACE_HIGH, TRACE_LOW, 0xb7ad6b7169203331L, 0xb7ad6b7169203331L, "GET /cpu",
                null);
        long inRoot = System.nanoTime();
        recorder.spanCurrent(child, TRACE_HIGH, TRACE_LOW, 0x00f067aa0ba902b7L, 0xb7ad6b7169203331L, "GET /cpu",
                null);
        long inChild = System.nanoTime();
        // Closing the child's scope makes the root current again: the thread knows its handle, writes no record.
        int written = recorder.spanTable().written();
        assertThat(recorder.knownSpan(root)).isNotZero();
        recorder.spanCurrent(recorder.knownSpan(root));
        long backInRoot = System.nanoTime();
        recorder.spanCurrent(SpanTable.NONE);
        recorder.exit(token);
        long after = System.nanoTime();

        assertThat(recorder.spanTable().written()).isEqualTo(written);
        assertThat(labelled(samples, before)).containsExactly("[worker tid=77]", "app/Handler.handle");
        assertThat(labelled(samples, inRoot)).containsExactly("[worker tid=77]", "[tenant=acme]",
                "[span_id=b7ad6b7169203331]", "[span_name=GET /cpu]", "[trace_id=0af7651916cd43dd8448eb211c80319c]",
                "app/Handler.handle");
        assertThat(labelled(samples, inChild)).contains("[span_id=00f067aa0ba902b7]");
        assertThat(labelled(samples, backInRoot)).contains("[span_id=b7ad6b7169203331]");
        assertThat(labelled(samples, after)).containsExactly("[worker tid=77]", "app/Handler.handle");
        assertThat(samples.labelsAt(77, inChild)).as("the labels alone").extracting(Frame::name)
                .containsExactly("[tenant=acme]");
    }

    @Test
    void withRootSpansEverySampleOfARequestCarriesItsLocalRoot() {
        recorder.recordSpans(true, 100, true, false);
        SampleLabels samples = new SampleLabels(recorder);
        recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, 0x00f067aa0ba902b7L, 0xb7ad6b7169203331L, "GET /cpu",
                null);
        assertThat(labelled(samples, System.nanoTime())).contains("[span_id=b7ad6b7169203331]")
                .doesNotContain("[span_id=00f067aa0ba902b7]");
    }

    @Test
    void spansPastThePeriodsBoundAreOtherUntilTheNextPeriod() {
        recorder.recordSpans(false, 3, true, false);
        SampleLabels samples = new SampleLabels(recorder);
        for (int i = 1; i <= 5; i++) {
            recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, i, 0, null, null);
            List<String> names = labelled(samples, System.nanoTime());
            if (i <= 3) {
                assertThat(names).contains(String.format("[span_id=%016x]", i));
            } else {
                assertThat(names).contains("[span_id=other]").noneMatch(n -> n.startsWith("[trace_id="));
            }
        }
        // The same span again in the same period keeps its number, past the bound too.
        recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, 2, 0, null, null);
        assertThat(labelled(samples, System.nanoTime())).contains("[span_id=0000000000000002]");
        recorder.spanTable().nextPeriod();
        recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, 9, 0, null, null);
        assertThat(labelled(samples, System.nanoTime())).contains("[span_id=0000000000000009]");
        assertThat(samples.spanCounts()).containsExactly(4, 2, 0);
    }

    @Test
    void aSpanOverwrittenInTheTableBeforeItsSampleWasTakenIsLeftOffAndCounted() {
        recorder.recordSpans(false, 100, true, false);
        SampleLabels samples = new SampleLabels(recorder);
        recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, 1, 0, null, null);
        long inFirst = System.nanoTime();
        for (int i = 0; i < SpanTable.CAPACITY; i++) {
            recorder.spanTable().put(0, 0, 2, 0, null, null);
        }
        assertThat(labelled(samples, inFirst)).containsExactly("[worker tid=77]", "app/Handler.handle");
        assertThat(samples.spanCounts()[2]).isEqualTo(1);
    }

    @Test
    void aServerSpansEndpointIsTheSamplesEndpointWhereItsOwnLabelsHaveNone() {
        recorder.recordSpans(true, 100, false, true);
        SampleLabels samples = new SampleLabels(recorder);
        recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, 7, 7, "GET", "GET /inline");
        assertThat(labelled(samples, System.nanoTime())).containsExactly("[worker tid=77]", "[endpoint=GET /inline]",
                "app/Handler.handle");
        long token = recorder.enter("endpoint", "/heavy");
        assertThat(labelled(samples, System.nanoTime())).as("mixflame's own endpoint wins")
                .containsExactly("[worker tid=77]", "[endpoint=/heavy]", "app/Handler.handle");
        recorder.exit(token);
        recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, 8, 8, "SELECT", null);
        assertThat(labelled(samples, System.nanoTime())).as("a span of no request, without ids asked for")
                .containsExactly("[worker tid=77]", "app/Handler.handle");
    }

    @Test
    void withoutSpansRecordedNoTableIsMadeAndSamplesCarryLabelsAlone() {
        SampleLabels samples = new SampleLabels(recorder);
        recorder.spanCurrent(new Object(), TRACE_HIGH, TRACE_LOW, 1, 0, "x", null);
        assertThat(recorder.spanTable()).isNull();
        assertThat(samples.spanCounts()).isNull();
        assertThat(labelled(samples, System.nanoTime())).containsExactly("[worker tid=77]", "app/Handler.handle");
    }

    private static List<String> labelled(SampleLabels samples, long time) {
        int depth = samples.label(77, time, new Frame[] {THREAD, METHOD}, 2, true);
        return Arrays.stream(samples.frames(), 0, depth).map(Frame::name).toList();
    }
}
