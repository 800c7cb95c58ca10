package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;
import java.util.Arrays;

/** The frames of each set of labels, {@code [key=value]} in the order of the keys, made at a set's first use. */
final class SetFrames {
    private static final Frame[] NO_FRAMES = new Frame[0];
    private static final Frame[] OTHER_FRAMES = {SampleLabels.OTHER};

    private final LabelSets sets;
    private Frame[][] made = new Frame[64][];

    SetFrames(LabelSets sets) {
        this.sets = sets;
    }

    /** The frames of set {@code set}; none for no labels or an id that names no set. Used by one thread. */
    Frame[] of(int set) {
        if (set == LabelSets.NONE || !sets.known(set)) {
            return NO_FRAMES;
        }
        if (set == LabelSets.OTHER) {
            return OTHER_FRAMES;
        }
        if (set >= made.length) {
            made = Arrays.copyOf(made, Math.max(set + 1, made.length * 2));
        }
        Frame[] frames = made[set];
        if (frames == null) {
            String[] keys = sets.keys(set);
            String[] values = sets.values(set);
            frames = new Frame[keys.length];
            for (int i = 0; i < keys.length; i++) {
                frames[i] = Frame.label(keys[i], values[i]);
            }
            made[set] = frames;
        }
        return frames;
    }
}
