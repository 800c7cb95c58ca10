package io.mixflame.agent;

import io.mixflame.report.OutputFormat;
import io.mixflame.report.TextSummary;

/**
 * async-profiler's output words: the format they name, whatever the file's name ({@code collapsed},
 * {@code flamegraph}, {@code tree}, {@code jfr}, {@code otlp}, and {@code summary}, {@code traces=N}, {@code flat=N}
 * for its text output), what that text holds, and {@code reverse}.
 *
 * @param word    the format named, or null: the file's extension tells it
 * @param text    what the text output holds
 * @param reverse stacks written leaf first ({@code reverse}: an HTML flame graph drawn as an icicle)
 */
record OutputChoice(OutputFormat word, TextSummary text, boolean reverse) {
    /** No word: the format follows from the file's name. */
    static final OutputChoice BY_NAME = new OutputChoice(null, TextSummary.DEFAULT, false);

    /** The format a file of {@code template} is written in. */
    OutputFormat formatOf(String template) {
        return word != null ? word : OutputFormat.fromPath(template);
    }

    /** The extension a default file name takes for the word's format. */
    static String extensionOf(OutputFormat format) {
        return switch (format) {
            case COLLAPSED -> ".collapsed";
            case HTML -> ".html";
            case PPROF -> ".pb.gz";
            case JFR -> ".jfr";
            case OTLP -> ".otlp";
            case TEXT -> ".txt";
        };
    }
}
