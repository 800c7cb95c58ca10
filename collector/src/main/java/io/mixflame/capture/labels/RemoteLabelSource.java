package io.mixflame.capture.labels;

import io.mixflame.process.ProcessMemory;

/**
 * The labels of a JVM sampled from outside (by a helper process it started): its label log's directory, at an
 * address the JVM gave on the helper's command line ({@link LabelLog#directory()}).
 *
 * @param directory the directory's address in the sampled process
 */
public record RemoteLabelSource(long directory) implements LabelSource {
    @Override
    public SampleLabeler labeler(ProcessMemory memory) {
        return new RemoteSampleLabels(memory, directory);
    }

    @Override
    public boolean readsMemory() {
        return true;
    }
}
