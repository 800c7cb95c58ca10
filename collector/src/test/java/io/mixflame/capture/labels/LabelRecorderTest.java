package io.mixflame.capture.labels;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The writer's side (the application's threads) and the sampler's side together. */
class LabelRecorderTest {
    private static final Frame THREAD = Frame.thread("worker", 77);
    private static final Frame METHOD = Frame.java("app.Handler", "handle", FrameType.JIT_COMPILED);

    private final LabelRecorder recorder = new LabelRecorder(new LabelSets(64), new LabelLog(8), () -> 77);
    private final SampleLabels samples = new SampleLabels(recorder);

    @Test
    void samplesCarryTheLabelsInForceWhenTheyWereTakenAfterTheThreadFrame() {
        long before = System.nanoTime();
        long outer = recorder.enter("tenant", "acme");
        long inOuter = System.nanoTime();
        long inner = recorder.enter(new String[] {"endpoint", "/checkout", "tenant", "globex"});
        long inInner = System.nanoTime();
        recorder.exit(inner);
        long backInOuter = System.nanoTime();
        recorder.exit(outer);
        long after = System.nanoTime();

        assertThat(labelled(before)).containsExactly("[worker tid=77]", "app/Handler.handle");
        assertThat(labelled(inOuter)).containsExactly("[worker tid=77]", "[tenant=acme]", "app/Handler.handle");
        assertThat(labelled(inInner))
                .containsExactly("[worker tid=77]", "[endpoint=/checkout]", "[tenant=globex]", "app/Handler.handle");
        assertThat(labelled(backInOuter)).containsExactly("[worker tid=77]", "[tenant=acme]", "app/Handler.handle");
        assertThat(labelled(after)).containsExactly("[worker tid=77]", "app/Handler.handle");
        assertThat(samples.labelsAt(77, inOuter)[0].type()).isEqualTo(FrameType.LABEL);
    }

    @Test
    void withoutAThreadFrameLabelsComeFirst() {
        long token = recorder.enter("tenant", "acme");
        long now = System.nanoTime();
        int depth = samples.label(77, now, new Frame[] {METHOD}, 1, false);
        recorder.exit(token);

        assertThat(names(samples.frames(), depth)).containsExactly("[tenant=acme]", "app/Handler.handle");
    }

    @Test
    void otherThreadsAndInvalidKeysGetNoLabels() {
        long token = recorder.enter("not a key", "x");
        long now = System.nanoTime();
        assertThat(samples.labelsAt(77, now)).isEmpty();
        recorder.exit(token);
        recorder.enter("tenant", "acme");
        assertThat(samples.labelsAt(78, System.nanoTime())).isEmpty();
    }

    @Test
    void aStoppedRecorderRecordsNothingAndTokensOfAnotherRecorderRestoreNothing() {
        LabelRecorder other = new LabelRecorder(recorder.sets(), new LabelLog(8), () -> 77);
        long foreign = other.enter("tenant", "globex");
        long token = recorder.enter("tenant", "acme");
        recorder.exit(foreign);
        assertThat(labelled(System.nanoTime())).contains("[tenant=acme]");

        recorder.stop();
        assertThat(recorder.enter("job", "x")).isEqualTo(LabelRecorder.NO_TOKEN);
        recorder.exit(token);
        assertThat(labelled(System.nanoTime())).contains("[tenant=acme]");
    }

    @Test
    void setsPastTheBoundAreOtherLabels() {
        LabelRecorder small = new LabelRecorder(new LabelSets(3), new LabelLog(1), () -> 5);
        SampleLabels read = new SampleLabels(small);
        small.enter("request", "1");
        long first = System.nanoTime();
        small.enter("request", "2");
        long second = System.nanoTime();

        assertThat(read.labelsAt(5, first)).extracting(Frame::name).containsExactly("[request=1]");
        assertThat(read.labelsAt(5, second)).extracting(Frame::name).containsExactly("[labels=other]");
    }

    private List<String> labelled(long time) {
        int depth = samples.label(77, time, new Frame[] {THREAD, METHOD}, 2, true);
        return names(samples.frames(), depth);
    }

    private static List<String> names(Frame[] frames, int depth) {
        return Arrays.stream(frames, 0, depth).map(Frame::name).toList();
    }
}
