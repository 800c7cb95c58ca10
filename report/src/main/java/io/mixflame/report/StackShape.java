package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.util.Arrays;

/**
 * A stack as pprof and OpenTelemetry's profiles lay out a sample: its thread root frame ({@link FrameType#THREAD}),
 * which becomes the sample's thread label or attributes; the {@link FrameType#LABEL} frames after it, which become
 * labels or attributes of their own; and the rest, its code, leaf first as both formats want it. The thread and labels
 * are the stack's root end ({@link LabelFrames#rootEnd}) and are not locations.
 *
 * @param thread    the thread root frame, or null when the stack has none
 * @param labels    the label frames, in the stack's order
 * @param leafFirst the other frames, the leaf first
 */
record StackShape(Frame thread, Frame[] labels, Frame[] leafFirst) {

    /** The shape of a stack given root first. */
    static StackShape of(Frame[] rootFirst) {
        int rootEnd = LabelFrames.rootEnd(rootFirst);
        boolean threaded = rootFirst.length > 0 && rootFirst[0].type() == FrameType.THREAD;
        Frame[] leafFirst = new Frame[rootFirst.length - rootEnd];
        for (int i = 0; i < leafFirst.length; i++) {
            leafFirst[i] = rootFirst[rootFirst.length - 1 - i];
        }
        return new StackShape(threaded ? rootFirst[0] : null,
                Arrays.copyOfRange(rootFirst, threaded ? 1 : 0, rootEnd), leafFirst);
    }
}
