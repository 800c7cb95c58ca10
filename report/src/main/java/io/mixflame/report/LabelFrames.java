package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import java.util.Arrays;
import java.util.Comparator;
import java.util.function.IntFunction;

/**
 * Where a stack's labels are and how a label is told from its name: the stack's root end is its thread frame
 * ({@link FrameType#THREAD}, first when there is one) followed by its {@link FrameType#LABEL} frames. Outputs that give
 * threads and labels fields of their own (pprof and OTLP through {@link StackShape}, JFR) take the root end off the
 * stack; readers of formats that keep only names (collapsed, HTML) recover labels from it.
 */
final class LabelFrames {

    /** Labels in key order, as the profile model orders them. */
    static final Comparator<Frame> BY_KEY = Comparator.comparing(Frame::labelKey);

    private LabelFrames() {
    }

    /** Where the root end of a stack (root first) ends: after its thread frame, if first, and the labels that follow. */
    static int rootEnd(Frame[] rootFirst) {
        return rootEnd(rootFirst.length, i -> rootFirst[i]);
    }

    /** The same for a stack of a profile, read from its frame ids. */
    static int rootEnd(Profile profile, Profile.Stack stack) {
        int[] ids = stack.frameIds();
        return rootEnd(ids.length, i -> profile.frame(ids[i]));
    }

    private static int rootEnd(int depth, IntFunction<Frame> rootFirst) {
        int i = depth > 0 && rootFirst.apply(0).type() == FrameType.THREAD ? 1 : 0;
        while (i < depth && rootFirst.apply(i).type() == FrameType.LABEL) {
            i++;
        }
        return i;
    }

    /**
     * The label frame a name {@code [key=value]} with a valid key stands for ({@link Frame#label}, which also makes the
     * value safe again), or null for any other name.
     */
    static Frame fromName(String name) {
        if (name.length() < 4 || name.charAt(0) != '[' || name.charAt(name.length() - 1) != ']') {
            return null;
        }
        int eq = name.indexOf('=');
        if (eq < 0 || !Frame.isLabelKey(name.substring(1, eq))) {
            return null;
        }
        return Frame.label(name.substring(1, eq), name.substring(eq + 1, name.length() - 1));
    }

    /** The label frames sorted by key (stable: a key given twice keeps its values' order). */
    static Frame[] sorted(Frame[] labels) {
        Frame[] copy = labels.clone();
        Arrays.sort(copy, BY_KEY);
        return copy;
    }
}
