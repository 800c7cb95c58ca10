package io.mixflame.agent;

import io.mixflame.profile.Frame;
import io.mixflame.profile.SampleSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Delivers every sample to the session's profile and to any windows open at the moment (an HTTP request for the
 * next N seconds), so that a window sees exactly the samples taken while it was open.
 */
final class SampleFanOut implements SampleSink {
    private final SampleSink main;
    private final List<SampleSink> windows = new CopyOnWriteArrayList<>();

    SampleFanOut(SampleSink main) {
        this.main = main;
    }

    void open(SampleSink window) {
        windows.add(window);
    }

    void close(SampleSink window) {
        windows.remove(window);
    }

    @Override
    public void add(Frame[] rootFirst, int depth, long samples, long weightNanos) {
        main.add(rootFirst, depth, samples, weightNanos);
        for (SampleSink w : windows) {
            w.add(rootFirst, depth, samples, weightNanos);
        }
    }

    @Override
    public void add(Frame[] rootFirst, int depth, long samples, long weightNanos, long epochNanos) {
        main.add(rootFirst, depth, samples, weightNanos, epochNanos);
        for (SampleSink w : windows) {
            w.add(rootFirst, depth, samples, weightNanos, epochNanos);
        }
    }

    @Override
    public void rename(Frame from, Frame to) {
        main.rename(from, to);
        for (SampleSink w : windows) {
            w.rename(from, to);
        }
    }
}
