package io.mixflame.agent.labels;

import io.mixflame.capture.labels.LabelRecorder;
import java.util.function.LongConsumer;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

/**
 * The recorder as the JDK's function types, which the bootstrap bridge and every copy of the API can hold without
 * seeing a class of the profiler's loader. One object per session: its call sites stay monomorphic.
 */
final class RecorderFunctions implements ToLongBiFunction<String, String>, ToLongFunction<String[]>, LongConsumer {
    private final LabelRecorder recorder;

    /** @param recorder where changes go */
    RecorderFunctions(LabelRecorder recorder) {
        this.recorder = recorder;
    }

    @Override
    public long applyAsLong(String key, String value) {
        return recorder.enter(key, value);
    }

    @Override
    public long applyAsLong(String[] keyValues) {
        return recorder.enter(keyValues);
    }

    @Override
    public void accept(long token) {
        recorder.exit(token);
    }
}
