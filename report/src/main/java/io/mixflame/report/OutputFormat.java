package io.mixflame.report;

import java.nio.file.Path;
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
    JFR,
    /** OpenTelemetry's profiles signal: an {@code ExportProfilesServiceRequest}, uncompressed. */
    OTLP,
    /**
     * async-profiler's text output: a summary, the heaviest stacks, the hottest frames ({@link TextSummaryWriter});
     * chosen by its option words ({@code summary}, {@code traces}, {@code flat}), never by a file's name.
     */
    TEXT;

    private static final String ACCEPTED = ".collapsed, .folded, .txt, .html, .pb.gz, .pprof, .jfr or .otlp";
    /** Every extension a format is told by, the longer of two that end alike first. */
    private static final String[] EXTENSIONS = {".collapsed", ".folded", ".txt", ".html", ".pb.gz", ".pprof", ".jfr",
        ".otlp"};

    /** Whether {@code path}'s name asks for this format. */
    public boolean matches(Path path) {
        try {
            return fromPath(path.toString()) == this;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The length of the extension that tells {@code name}'s format, whatever its case ({@code .pb.gz} whole), or 0
     * where it has none the formats know.
     */
    public static int extensionLength(String name) {
        for (String ext : EXTENSIONS) {
            if (name.regionMatches(true, name.length() - ext.length(), ext, 0, ext.length())) {
                return ext.length();
            }
        }
        return 0;
    }

    /**
     * The format a file name asks for: {@code .collapsed}/{@code .folded}/{@code .txt} → {@link #COLLAPSED},
     * {@code .html} → {@link #HTML}, {@code .pb.gz}/{@code .pprof} → {@link #PPROF}, {@code .jfr} → {@link #JFR}, {@code .otlp} → {@link #OTLP};
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
        if (lower.endsWith(".otlp")) {
            return OTLP;
        }
        throw new IllegalArgumentException(
                "cannot tell the output format of '" + path + "': its name must end in " + ACCEPTED);
    }
}
