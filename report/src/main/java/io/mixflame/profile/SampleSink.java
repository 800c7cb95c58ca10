package io.mixflame.profile;

/** Where an engine puts the stacks it samples. */
public interface SampleSink {
    /**
     * Adds samples of the stack made of the first {@code depth} entries of {@code rootFirst}.
     *
     * @param rootFirst   the frames, root first; not kept
     * @param samples     number of samples
     * @param weightNanos the time they stand for, or 0
     */
    void add(Frame[] rootFirst, int depth, long samples, long weightNanos);

    /**
     * Adds samples taken at {@code epochNanos} (nanoseconds since the epoch); a sink that keeps no times counts them
     * as {@link #add(Frame[], int, long, long)} does.
     */
    default void add(Frame[] rootFirst, int depth, long samples, long weightNanos, long epochNanos) {
        add(rootFirst, depth, samples, weightNanos);
    }

    /**
     * Shows every stack counted so far under frame {@code from} as under {@code to} instead: a thread first named
     * provisionally (its Java name could not be read yet) whose real name was found while it lived. Stacks counted
     * afterwards under either frame show {@code to}. A sink that keeps no frames ignores it.
     */
    default void rename(Frame from, Frame to) {
    }
}
