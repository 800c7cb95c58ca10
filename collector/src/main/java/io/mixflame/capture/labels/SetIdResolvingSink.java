package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.SampleSink;

/**
 * Where a JVM receives the samples its helper process took of it: a sample marked with the id of the set of labels
 * in force, {@code [labels=#ID]} ({@link RemoteSampleLabels}), gets the set's frames in its place, from this JVM's
 * own {@link LabelSets}. Used by the one thread that reads the helper's stream.
 */
public final class SetIdResolvingSink implements SampleSink {
    /** The name of a set-id frame up to its id: {@code [labels=#}. */
    private static final String ID_FRAME_PREFIX = "[" + RemoteSampleLabels.ID_KEY + "=" + RemoteSampleLabels.ID_PREFIX;

    private final SampleSink target;
    private final SetFrames setFrames;
    private Frame[] scratch = new Frame[256];

    /** Resolves ids of {@code sets} on their way to {@code target}. */
    public SetIdResolvingSink(SampleSink target, LabelSets sets) {
        this.target = target;
        this.setFrames = new SetFrames(sets);
    }

    @Override
    public void add(Frame[] rootFirst, int depth, long samples, long weightNanos) {
        int at = idFrame(rootFirst, depth);
        if (at < 0) {
            target.add(rootFirst, depth, samples, weightNanos);
        } else {
            target.add(scratch, resolve(rootFirst, depth, at), samples, weightNanos);
        }
    }

    @Override
    public void add(Frame[] rootFirst, int depth, long samples, long weightNanos, long epochNanos) {
        int at = idFrame(rootFirst, depth);
        if (at < 0) {
            target.add(rootFirst, depth, samples, weightNanos, epochNanos);
        } else {
            target.add(scratch, resolve(rootFirst, depth, at), samples, weightNanos, epochNanos);
        }
    }

    @Override
    public void rename(Frame from, Frame to) {
        target.rename(from, to);
    }

    /** Where the set-id frame is (at the root, or after the thread's frame), or -1. */
    private static int idFrame(Frame[] frames, int depth) {
        for (int i = 0; i < Math.min(2, depth); i++) {
            Frame f = frames[i];
            // By the name, not labelKey()/labelValue(): those cut strings, and this runs for every sample.
            if (f.type() == FrameType.LABEL && f.name().startsWith(ID_FRAME_PREFIX)) {
                return i;
            }
        }
        return -1;
    }

    /** The set id of a frame {@code [labels=#ID]}, or {@link LabelSets#NONE} when ID is not a number. */
    private static int setId(String name) {
        int end = name.length() - 1;
        if (end <= ID_FRAME_PREFIX.length() || end - ID_FRAME_PREFIX.length() > 9) {
            return LabelSets.NONE;
        }
        int id = 0;
        for (int i = ID_FRAME_PREFIX.length(); i < end; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return LabelSets.NONE;
            }
            id = id * 10 + (c - '0');
        }
        return id;
    }

    private int resolve(Frame[] frames, int depth, int at) {
        int set = setId(frames[at].name());
        Frame[] labels = setFrames.of(set);
        int total = depth - 1 + labels.length;
        if (scratch.length < total) {
            scratch = new Frame[Math.max(total, scratch.length * 2)];
        }
        System.arraycopy(frames, 0, scratch, 0, at);
        System.arraycopy(labels, 0, scratch, at, labels.length);
        System.arraycopy(frames, at + 1, scratch, at + labels.length, depth - at - 1);
        return total;
    }
}
