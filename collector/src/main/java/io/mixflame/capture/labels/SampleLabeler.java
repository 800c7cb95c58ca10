package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;

/**
 * An engine's view of labels: which set of labels a thread had at the moment of a sample ({@link #setAt}), and the
 * sample's stack with that set's frames put right after its thread's root frame (or first, without one)
 * ({@link #label(int, Frame[], int, boolean)}).
 *
 * <p>The two halves may run on two threads, one each: an engine that walks its samples later than it takes them
 * looks the set up as it takes a sample, while the thread's log still holds that moment (it keeps a thread's last
 * {@link LabelLog#ENTRIES} changes, which a walker that falls behind, as a cold one does, outlives), and makes the
 * frames when it walks.
 */
public interface SampleLabeler {
    /** More frames than a stack without labels has, at most: a set's labels and a span's three. */
    int MAX_FRAMES = LabelSets.MAX_LABELS + 3;

    /**
     * The set thread {@code tid} had at {@code nanoTime} (the clock of {@link System#nanoTime()} of the labelled
     * process): {@link LabelSets#NONE} for none, {@link LabelLog#UNKNOWN} when its log no longer says. Always called
     * by the same thread.
     */
    int setAt(long tid, long nanoTime);

    /**
     * The stack {@code frames[0..depth)} with the frames of {@code set} (an answer of {@link #setAt}) after its first
     * frame when {@code threadRoot}, else first; the result is in {@link #frames()}, its depth returned. Always called
     * by the same thread.
     */
    int label(int set, Frame[] frames, int depth, boolean threadRoot);

    /** {@link #setAt} and {@link #label(int, Frame[], int, boolean)} in one, on one thread. */
    default int label(long tid, long nanoTime, Frame[] frames, int depth, boolean threadRoot) {
        return label(setAt(tid, nanoTime), frames, depth, threadRoot);
    }

    /** The frames {@link #label} made last. */
    Frame[] frames();

    /** Samples whose labels the thread's log no longer held when they were looked up. */
    long unknown();
}
