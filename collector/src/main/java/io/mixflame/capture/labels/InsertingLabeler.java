package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;

/**
 * The labelers' common half: a sample's stack with the frames of its set put after its thread's root frame (or
 * first), and the count of sets looked up too late. Subclasses look sets up and make their frames.
 */
abstract class InsertingLabeler implements SampleLabeler {
    /** The frames of a set looked up too late. */
    static final Frame[] UNKNOWN_FRAMES = {SampleLabels.UNKNOWN};
    private static final Frame[] NO_SPAN = new Frame[0];

    private Frame[] scratch = new Frame[256];
    /** Written by {@link #setAt}'s thread alone. */
    private volatile long unknown;

    /** The frames of {@code set}, an answer of {@link #setAt}; not modified by the caller. */
    abstract Frame[] framesOf(int set);

    /** The frames of the span {@code set} carries too, after its labels' ({@link SampleLabels}); none by default. */
    Frame[] spanFramesOf(int set) {
        return NO_SPAN;
    }

    /** {@code set}, counted when it is {@link LabelLog#UNKNOWN}; for {@link #setAt}'s thread. */
    final int counted(int set) {
        if (set == LabelLog.UNKNOWN) {
            unknown++;
        }
        return set;
    }

    @Override
    public final int label(int set, Frame[] frames, int depth, boolean threadRoot) {
        Frame[] labels = framesOf(set);
        Frame[] span = spanFramesOf(set);
        int total = depth + labels.length + span.length;
        if (scratch.length < total) {
            scratch = new Frame[Math.max(total, scratch.length * 2)];
        }
        int root = threadRoot && depth > 0 ? 1 : 0;
        System.arraycopy(frames, 0, scratch, 0, root);
        System.arraycopy(labels, 0, scratch, root, labels.length);
        System.arraycopy(span, 0, scratch, root + labels.length, span.length);
        System.arraycopy(frames, root, scratch, root + labels.length + span.length, depth - root);
        return total;
    }

    @Override
    public final Frame[] frames() {
        return scratch;
    }

    @Override
    public final long unknown() {
        return unknown;
    }
}
