package io.mixflame.agent.labels;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.labels.LabelLog;
import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.capture.labels.LabelSets;
import io.mixflame.capture.labels.SampleLabels;
import io.mixflame.capture.labels.SpanTable;
import io.mixflame.profile.Frame;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The span context read from an application's own OpenTelemetry SDK (no Java agent, so no instrumentation API): what
 * the woven context storage tells the bridge is given here directly, as the advice would give it.
 */
class SpanContextReaderTest {
    private static final Frame THREAD = Frame.thread("worker", 77);

    private final SdkTracerProvider provider = SdkTracerProvider.builder().build();
    private final Tracer tracer = provider.get("test");
    private final LabelRecorder recorder = new LabelRecorder(new LabelSets(64), new LabelLog(8), () -> 77);

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void aServerSpansIdsNameAndEndpointAreOnTheSamplesOfItsRequestChildrenIncluded() {
        recorder.recordSpans(true, 100, true, true);
        SpanContextReader reader = new SpanContextReader(recorder, true);
        SampleLabels samples = new SampleLabels(recorder);
        Span server = tracer.spanBuilder("GET").setSpanKind(SpanKind.SERVER).setNoParent()
                .setAttribute("http.request.method", "GET").setAttribute("url.path", "/users/42").startSpan();
        String root = server.getSpanContext().getSpanId();
        String trace = server.getSpanContext().getTraceId();
        try (Scope s = server.makeCurrent()) {
            reader.accept(Context.current());
            assertThat(labels(samples)).containsExactly("[endpoint=GET /users/*]", "[span_id=" + root + "]",
                    "[span_name=GET]", "[trace_id=" + trace + "]");
            Span child = tracer.spanBuilder("query").startSpan();
            try (Scope c = child.makeCurrent()) {
                reader.accept(Context.current());
                assertThat(labels(samples)).as("root spans: the child's samples carry its request's")
                        .contains("[span_id=" + root + "]", "[endpoint=GET /users/*]");
            }
            child.end();
            reader.accept(Context.current());
        }
        reader.accept(null);
        assertThat(labels(samples)).isEmpty();
        server.end();
        assertThat(((ReadableSpan) server).getAttribute(AttributeKey.stringKey(SpanContextReader.PROFILE_ID)))
                .as("the sampled local root, for Grafana's traces to profiles").isEqualTo(root);
    }

    @Test
    void withAllSpansTheInnermostIsTheSamplesAndAContextWithoutASpanHasNone() {
        recorder.recordSpans(false, 100, true, false);
        SpanContextReader reader = new SpanContextReader(recorder, false);
        SampleLabels samples = new SampleLabels(recorder);
        Span parent = tracer.spanBuilder("job").setNoParent().startSpan();
        try (Scope s = parent.makeCurrent()) {
            reader.accept(Context.current());
            Span child = tracer.spanBuilder("step").startSpan();
            try (Scope c = child.makeCurrent()) {
                reader.accept(Context.current());
                assertThat(labels(samples)).contains("[span_id=" + child.getSpanContext().getSpanId() + "]",
                        "[span_name=job]");
            }
            child.end();
        }
        parent.end();
        assertThat(((ReadableSpan) parent).getAttribute(AttributeKey.stringKey(SpanContextReader.PROFILE_ID)))
                .as("not tagged where profiles are not pushed").isNull();
        reader.accept(Context.root());
        assertThat(labels(samples)).isEmpty();
        assertThat(recorder.currentSpan()).isEqualTo(SpanTable.NONE);
    }

    private static List<String> labels(SampleLabels samples) {
        int depth = samples.label(77, System.nanoTime(), new Frame[] {THREAD}, 1, true);
        return Arrays.stream(samples.frames(), 1, depth).map(Frame::name).toList();
    }
}
