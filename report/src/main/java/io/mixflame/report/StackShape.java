package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;

/**
 * A stack as pprof and OpenTelemetry's profiles lay out a sample: its thread root frame ({@link FrameType#THREAD}),
 * which becomes the sample's thread label or attributes; the {@link FrameType#LABEL} frames after it, which become
 * labels or attributes of their own; and the rest, its code, leaf first as both formats want it. The thread and labels
 * are the stack's root end ({@link LabelFrames#rootEnd}) and are not locations.
 *
 * <p>The code is kept as the profile's frame ids, so that writers look each distinct frame up once
 * ({@link ProfileDictionary#location(Profile, int)}) rather than hash it at every stack it is in.
 *
 * @param thread    the thread root frame, or null when the stack has none
 * @param labels    the label frames, in the stack's order
 * @param leafFirst the ids of the other frames, the leaf first
 */
record StackShape(Frame thread, Frame[] labels, int[] leafFirst) {

    /** The shape of a stack of {@code profile}. */
    static StackShape of(Profile profile, Profile.Stack stack) {
        int[] rootFirst = stack.frameIds();
        int rootEnd = LabelFrames.rootEnd(profile, stack);
        Frame thread = rootFirst.length > 0 && profile.frame(rootFirst[0]).type() == FrameType.THREAD
                ? profile.frame(rootFirst[0]) : null;
        int firstLabel = thread == null ? 0 : 1;
        Frame[] labels = new Frame[rootEnd - firstLabel];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = profile.frame(rootFirst[firstLabel + i]);
        }
        int[] leafFirst = new int[rootFirst.length - rootEnd];
        for (int i = 0; i < leafFirst.length; i++) {
            leafFirst[i] = rootFirst[rootFirst.length - 1 - i];
        }
        return new StackShape(thread, labels, leafFirst);
    }
}
