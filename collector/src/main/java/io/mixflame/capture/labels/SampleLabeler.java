package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;

/**
 * An engine's sampling thread's view of labels: puts the label frames in force on a thread at the moment of a sample
 * into the sample's stack, right after its thread's root frame (or first, without one). One per sampling thread.
 */
public interface SampleLabeler {
    /** More frames than a stack without labels has, at most. */
    int MAX_FRAMES = LabelSets.MAX_LABELS;

    /**
     * The stack {@code frames[0..depth)} with the labels thread {@code tid} had at {@code nanoTime} (the clock of
     * {@link System#nanoTime()} of the labelled process) after its first frame when {@code threadRoot}, else first;
     * the result is in {@link #frames()}, its depth returned.
     */
    int label(long tid, long nanoTime, Frame[] frames, int depth, boolean threadRoot);

    /** The frames {@link #label} made last. */
    Frame[] frames();

    /** Samples whose labels the thread's log no longer held when they were looked up. */
    long unknown();
}
