package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Where a stack's labels are and how a label is told from its name: the stack's root end is its thread frame
 * ({@link FrameType#THREAD}, first when there is one) followed by its {@link FrameType#LABEL} frames. Outputs that give
 * threads and labels fields of their own (pprof, JFR) take the root end off the stack; readers of formats that keep
 * only names (collapsed, HTML) recover labels from it.
 */
final class LabelFrames {

    /** Labels in key order, as the profile model orders them. */
    static final Comparator<Frame> BY_KEY = Comparator.comparing(Frame::labelKey);

    private LabelFrames() {
    }

    /** Where the root end of a stack (root first) ends: after its thread frame, if first, and the labels that follow. */
    static int rootEnd(Frame[] rootFirst) {
        int i = rootFirst.length > 0 && rootFirst[0].type() == FrameType.THREAD ? 1 : 0;
        while (i < rootFirst.length && rootFirst[i].type() == FrameType.LABEL) {
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
