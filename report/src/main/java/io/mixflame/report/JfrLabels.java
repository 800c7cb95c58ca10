package io.mixflame.report;

import io.mixflame.profile.Frame;
import java.util.ArrayList;
import java.util.List;

/**
 * The text of the {@code labels} field of a JFR recording's {@code mixflame.SampleLabels} events, both ways:
 * {@code key=value} pairs in key order joined by {@code ", "} ({@code endpoint=/checkout, tenant=acme}), where a value
 * has every {@code \} written {@code \\} and every {@code ,} written {@code \,}. Keys hold neither, nor {@code =}
 * ({@link Frame#isLabelKey}), so every pair reads back as it was, whatever its value holds.
 */
final class JfrLabels {

    private static final String SEPARATOR = ", ";

    private JfrLabels() {
    }

    /** The field's text for the label frames {@code frames[from..to)}, or null when there are none. */
    static String format(Frame[] frames, int from, int to) {
        if (from >= to) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            if (i > from) {
                sb.append(SEPARATOR);
            }
            sb.append(frames[i].labelKey()).append('=');
            String value = frames[i].labelValue();
            for (int c = 0; c < value.length(); c++) {
                char ch = value.charAt(c);
                if (ch == '\\' || ch == ',') {
                    sb.append('\\');
                }
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    /**
     * The label frames a field's text stands for, in its order. A pair without {@code =} or whose key is no label key
     * (text another writer made) is left out; a dangling {@code \} at the end stands for itself.
     *
     * @param maxLabels the most pairs taken; more fail with {@link IllegalArgumentException}
     */
    static List<Frame> parse(String text, int maxLabels) {
        List<Frame> labels = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return labels;
        }
        StringBuilder value = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int eq = text.indexOf('=', i);
            int comma = text.indexOf(',', i);
            if (eq < 0 || comma >= 0 && comma < eq) {
                // No key here: skip to the next pair, if any.
                i = comma < 0 ? text.length() : afterSeparator(text, comma);
                continue;
            }
            String key = text.substring(i, eq);
            value.setLength(0);
            int j = eq + 1;
            for (; j < text.length() && text.charAt(j) != ','; j++) {
                char c = text.charAt(j);
                if (c == '\\' && j + 1 < text.length()) {
                    c = text.charAt(++j);
                }
                value.append(c);
            }
            if (Frame.isLabelKey(key)) {
                if (labels.size() == maxLabels) {
                    throw new IllegalArgumentException("more than " + maxLabels + " labels");
                }
                labels.add(Frame.label(key, value.toString()));
            }
            i = j < text.length() ? afterSeparator(text, j) : j;
        }
        return labels;
    }

    /** Where the pair after the {@code ,} at {@code comma} starts: past the space the writer puts after it. */
    private static int afterSeparator(String text, int comma) {
        return comma + 1 < text.length() && text.charAt(comma + 1) == ' ' ? comma + 2 : comma + 1;
    }
}
