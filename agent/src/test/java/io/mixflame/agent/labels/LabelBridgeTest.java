package io.mixflame.agent.labels;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.api.Labels;
import io.mixflame.api.internal.LabelFunctions;
import io.mixflame.bridge.LabelBridge;
import io.mixflame.capture.labels.LabelLog;
import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.capture.labels.LabelSets;
import io.mixflame.capture.labels.SampleLabels;
import io.mixflame.profile.Frame;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge between the API, the woven servers and the recorder: an API class registered with the bridge gets the
 * recorder's functions while a run installs them and none after; {@code labels=http} keeps them from the API. Here
 * the bridge is the test's class path's, not the bootstrap loader's, which the agent puts it in.
 */
class LabelBridgeTest {
    private static final long TID = 4242;

    private final LabelRecorder recorder = new LabelRecorder(new LabelSets(64), new LabelLog(4), () -> TID);
    private final SampleLabels samples = new SampleLabels(recorder);
    private final RecorderFunctions functions = new RecorderFunctions(recorder);

    @AfterEach
    void uninstall() {
        LabelBridge.install(null, null, null, false);
    }

    @Test
    void theApiRecordsThroughTheBridgeWhileARunInstallsTheRecorder() {
        assertThat(LabelBridge.register(LabelFunctions.class)).isTrue();
        LabelBridge.install(functions, functions, functions, true);
        long[] inside = new long[2];
        Labels.run(Map.of("tenant", "acme"), () -> {
            inside[0] = System.nanoTime();
            Labels.run("job", "export", () -> inside[1] = System.nanoTime());
        });
        long after = System.nanoTime();

        assertThat(Labels.recording()).isTrue();
        assertThat(labelsAt(inside[0])).containsExactly("[tenant=acme]");
        assertThat(labelsAt(inside[1])).containsExactly("[job=export]", "[tenant=acme]");
        assertThat(labelsAt(after)).isEmpty();

        LabelBridge.install(null, null, null, false);
        assertThat(Labels.recording()).isFalse();
        long[] stopped = new long[1];
        Labels.run("tenant", "globex", () -> stopped[0] = System.nanoTime());
        assertThat(labelsAt(stopped[0])).isEmpty();
    }

    @Test
    void httpOnlyKeepsTheFunctionsFromTheApiButNotFromTheServers() {
        LabelBridge.register(LabelFunctions.class);
        LabelBridge.install(functions, functions, functions, false);

        assertThat(Labels.recording()).isFalse();
        long token = LabelBridge.enter(LabelBridge.ENDPOINT, "/checkout");
        long inRequest = System.nanoTime();
        LabelBridge.exit(token);
        assertThat(labelsAt(inRequest)).containsExactly("[endpoint=/checkout]");
    }

    @Test
    void withNothingInstalledTheBridgeDoesNothing() {
        assertThat(LabelBridge.enter(LabelBridge.ENDPOINT, "/a")).isZero();
        LabelBridge.exit(12345);
        assertThat(recorder.log().slots()).isZero();
    }

    private List<String> labelsAt(long time) {
        return Arrays.stream(samples.labelsAt(TID, time)).map(Frame::name).toList();
    }
}
