package io.mixflame.report;

import java.util.Locale;

/** The file formats a profile can be written in, chosen by the output file's extension. */
public enum OutputFormat {
    /** Collapsed stacks, one line per stack: the text form flamegraph.pl and async-profiler read. */
    COLLAPSED,
    /** A self-contained interactive flame graph page. */
    HTML,
    /** A gzip-compressed pprof {@code profile.proto}. */
    PPROF,
    /** A JDK Flight Recorder file of execution samples. */
    JFR;

    private static final String ACCEPTED = ".collapsed, .folded, .txt, .html, .pb.gz, .pprof or .jfr";

    /**
     * The format a file name asks for: {@code .collapsed}/{@code .folded}/{@code .txt} → {@link #COLLAPSED},
     * {@code .html} → {@link #HTML}, {@code .pb.gz}/{@code .pprof} → {@link #PPROF}, {@code .jfr} → {@link #JFR};
     * the extension's case does not matter.
     *
     * @throws IllegalArgumentException with a one-line message naming the file and the accepted extensions
     */
    public static OutputFormat fromPath(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".collapsed") || lower.endsWith(".folded") || lower.endsWith(".txt")) {
            return COLLAPSED;
        }
        if (lower.endsWith(".html")) {
            return HTML;
        }
        if (lower.endsWith(".pb.gz") || lower.endsWith(".pprof")) {
            return PPROF;
        }
        if (lower.endsWith(".jfr")) {
            return JFR;
        }
        throw new IllegalArgumentException(
                "cannot tell the output format of '" + path + "': its name must end in " + ACCEPTED);
    }
}
