package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;

/** A sample's stack with label frames put after its thread's root frame (or first): the labelers' common step. */
final class LabelInsertion {
    private Frame[] scratch = new Frame[256];

    /** {@code frames[0..depth)} with {@code labels} inserted, in {@link #frames()}; returns the new depth. */
    int insert(Frame[] labels, Frame[] frames, int depth, boolean threadRoot) {
        int total = depth + labels.length;
        if (scratch.length < total) {
            scratch = new Frame[Math.max(total, scratch.length * 2)];
        }
        int root = threadRoot && depth > 0 ? 1 : 0;
        System.arraycopy(frames, 0, scratch, 0, root);
        System.arraycopy(labels, 0, scratch, root, labels.length);
        System.arraycopy(frames, root, scratch, root + labels.length, depth - root);
        return total;
    }

    Frame[] frames() {
        return scratch;
    }
}
