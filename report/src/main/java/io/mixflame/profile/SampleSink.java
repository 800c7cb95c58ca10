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
}
