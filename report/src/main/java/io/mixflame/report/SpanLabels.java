package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.util.Arrays;

/**
 * The label frames a sample's trace span comes as ({@code [span_id=…]}, {@code [trace_id=…]},
 * {@code [span_name=…]}): told apart from the application's own labels, and taken out or turned into one
 * {@code [span=NAME]} frame for the outputs that keep only names.
 */
final class SpanLabels {
    /** The keys of a span's label frames. */
    static final String SPAN_ID = "span_id";
    static final String TRACE_ID = "trace_id";
    static final String SPAN_NAME = "span_name";
    /** The key of the one frame that stands for a span in collapsed and HTML outputs. */
    static final String SPAN = "span";

    private SpanLabels() {
    }

    /** Whether {@code f} is one of a span's label frames. */
    static boolean isSpanFrame(Frame f) {
        if (f.type() != FrameType.LABEL) {
            return false;
        }
        String key = f.labelKey();
        return key.equals(SPAN_ID) || key.equals(TRACE_ID) || key.equals(SPAN_NAME);
    }

    /**
     * {@code frames} with the span frames among its first {@code rootEnd} (the thread's and label frames) taken out
     * and, where {@code asFrame}, one {@code [span=NAME]} frame where the first of them was.
     */
    static Frame[] replaced(Frame[] frames, int rootEnd, boolean asFrame) {
        int first = -1;
        String name = null;
        String id = null;
        int kept = 0;
        Frame[] out = new Frame[frames.length + 1];
        for (int i = 0; i < frames.length; i++) {
            Frame f = frames[i];
            if (i < rootEnd && isSpanFrame(f)) {
                if (first < 0) {
                    first = kept;
                }
                if (f.labelKey().equals(SPAN_NAME)) {
                    name = f.labelValue();
                } else if (f.labelKey().equals(SPAN_ID)) {
                    id = f.labelValue();
                }
                continue;
            }
            out[kept++] = f;
        }
        if (first < 0) {
            return frames;
        }
        if (!asFrame) {
            return Arrays.copyOf(out, kept);
        }
        System.arraycopy(out, first, out, first + 1, kept - first);
        out[first] = Frame.label(SPAN, name != null ? name : id != null ? id : "other");
        return Arrays.copyOf(out, kept + 1);
    }
}
