package io.mixflame.report;

import java.util.List;
import java.util.Locale;

/** Renders the hottest frames as an aligned text table: rank, self %, self, total %, total, frame. */
public final class TopTable {

    private static final String[] HEADERS = {"rank", "self %", "self", "total %", "total", "frame"};

    private TopTable() {
    }

    /**
     * The {@code limit} hottest frames by self samples, one line each with a header line; every line ends in
     * a line break. A profile without samples renders as one line saying so.
     */
    public static String render(HotFrames hot, int limit) {
        if (hot.totalSamples() == 0) {
            return "no samples\n";
        }
        List<HotFrames.Entry> top = hot.entries().subList(0, Math.min(limit, hot.entries().size()));
        String[][] rows = new String[top.size() + 1][];
        rows[0] = HEADERS;
        for (int i = 0; i < top.size(); i++) {
            HotFrames.Entry e = top.get(i);
            rows[i + 1] = new String[] {
                Integer.toString(i + 1),
                percent(e.self(), hot.totalSamples()),
                Long.toString(e.self()),
                percent(e.total(), hot.totalSamples()),
                Long.toString(e.total()),
                CollapsedFrames.sanitize(e.name()),
            };
        }
        int columns = HEADERS.length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            for (int c = 0; c < columns - 1; c++) {
                // Numbers right-aligned so their digits line up.
                sb.append(" ".repeat(widths[c] - row[c].length())).append(row[c]).append("  ");
            }
            sb.append(row[columns - 1]).append('\n');
        }
        return sb.toString();
    }

    private static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }
}
