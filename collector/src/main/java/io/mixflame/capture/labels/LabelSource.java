package io.mixflame.capture.labels;

import io.mixflame.process.ProcessMemory;

/**
 * Where an engine finds the labels of the threads it samples: in this process ({@link LabelRecorder}) or, for a
 * helper process sampling a JVM from outside, in that JVM's memory ({@link RemoteLabelSource}).
 */
public interface LabelSource {
    /**
     * A labeler for one sampling thread.
     *
     * @param memory the sampled process's memory, as the engine reads it (unused for this process's own labels)
     */
    SampleLabeler labeler(ProcessMemory memory);
}
