package io.mixflame.examples.harness;

import java.util.ArrayList;
import java.util.List;

/** A markdown table, built row by row. */
final class MarkdownTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    MarkdownTable(String... header) {
        this.header = List.of(header);
    }

    MarkdownTable row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + header.size() + " columns");
        }
        rows.add(List.of(cells));
        return this;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        line(b, header);
        line(b, header.stream().map(h -> "---").toList());
        rows.forEach(r -> line(b, r));
        return b.toString();
    }

    private static void line(StringBuilder b, List<String> cells) {
        b.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
}
