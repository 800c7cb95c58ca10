package io.mixflame.capture.labels;

import io.mixflame.process.ProcessMemory;

/**
 * Where an engine finds the labels of the threads it samples: in this process ({@link LabelRecorder}) or, for a
 * helper process sampling a JVM from outside, in that JVM's memory ({@link RemoteLabelSource}).
 */
public interface LabelSource {
    /**
     * A labeler for one engine ({@link SampleLabeler}: its two halves may run on two threads).
     *
     * @param memory the sampled process's memory, used by {@link SampleLabeler#setAt} alone (unused for this
     *               process's own labels): a reader no other thread uses while that one does
     */
    SampleLabeler labeler(ProcessMemory memory);

    /** Whether the labeler reads the sampled process's memory: an engine then gives it a reader of its own. */
    default boolean readsMemory() {
        return false;
    }
}
