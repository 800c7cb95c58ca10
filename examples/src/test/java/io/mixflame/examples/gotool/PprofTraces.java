package io.mixflame.examples.gotool;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The stacks of a {@code go tool pprof -traces} report: each sample's frames, leaf first, as the report prints them
 * (with {@code -lines}, each frame followed by its {@code file:line}), and its labels.
 */
public record PprofTraces(List<Trace> traces) {
    /** Where a frame's name starts in a report line: after the value's column ({@code %10s} and three spaces). */
    private static final int FRAME_COLUMN = 13;
    private static final String SEPARATOR = "-----------+";

    /** One sample's labels ({@code thread:  [main tid=1]}) and frames, leaf first. */
    public record Trace(List<String> labels, List<String> frames) {
        /**
         * Whether a frame the regular expression {@code callee} matches whole comes before (is called by) a later
         * frame {@code caller} matches whole.
         */
        public boolean calls(String caller, String callee) {
            Pattern callerPattern = Pattern.compile(caller);
            Pattern calleePattern = Pattern.compile(callee);
            for (int i = 0; i < frames.size(); i++) {
                if (calleePattern.matcher(frames.get(i)).matches()) {
                    for (int k = i + 1; k < frames.size(); k++) {
                        if (callerPattern.matcher(frames.get(k)).matches()) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
    }

    /** Parses a report; the header before the first trace is skipped. */
    public static PprofTraces parse(String report) {
        List<Trace> traces = new ArrayList<>();
        List<String> labels = null;
        List<String> frames = null;
        for (String line : report.lines().toList()) {
            if (line.startsWith(SEPARATOR)) {
                if (frames != null && !frames.isEmpty()) {
                    traces.add(new Trace(labels, frames));
                }
                labels = new ArrayList<>();
                frames = new ArrayList<>();
            } else if (frames != null && frames.isEmpty() && isLabel(line)) {
                labels.add(line.trim());
            } else if (frames != null && line.length() > FRAME_COLUMN) {
                frames.add(line.substring(FRAME_COLUMN).trim());
            }
        }
        if (frames != null && !frames.isEmpty()) {
            traces.add(new Trace(labels, frames));
        }
        return new PprofTraces(traces);
    }

    /**
     * A label line, {@code %10s:  %s} (key, colon, values): a colon before the frame column, where a frame line has
     * its value ({@code 10ms}, {@code 1.20s}) or nothing.
     */
    private static boolean isLabel(String line) {
        int colon = line.indexOf(':');
        return colon >= 0 && colon < FRAME_COLUMN;
    }

    /** The traces some of whose labels contain {@code text}. */
    public List<Trace> labelled(String text) {
        List<Trace> out = new ArrayList<>();
        for (Trace t : traces) {
            if (t.labels().stream().anyMatch(l -> l.contains(text))) {
                out.add(t);
            }
        }
        return out;
    }
}
