package io.mixflame.report;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import one.convert.Arguments;
import one.convert.FlameGraph;

/** Profiles to and from files, the format chosen by the file's name. */
public final class ProfileFiles {

    // The title HtmlFlameGraphWriter gives a page, to recover the engine and event when reading it back.
    private static final Pattern OUR_TITLE = Pattern.compile("<h1>mixflame: (\\S+) profile \\((\\S+) engine\\)");
    private static final Pattern H1 = Pattern.compile("<h1>(.*)</h1>");
    // Enough to tell gzip and HTML from collapsed stacks, past a little leading white space.
    private static final int PEEK_BYTES = 4096;

    private ProfileFiles() {
    }

    /**
     * Writes the profile to {@code path} in the format its extension names ({@link OutputFormat#fromPath}),
     * shaped by {@code options}, atomically ({@link AtomicFileWriter}).
     *
     * @throws IllegalArgumentException when the extension names no format
     * @throws IOException              when the file cannot be written (a missing directory included)
     */
    public static void write(Profile profile, Path path, ReportOptions options) throws IOException {
        write(profile, path, OutputFormat.fromPath(path.toString()), options);
    }

    /** As {@link #write(Profile, Path, ReportOptions)}, in {@code format} whatever the file's name. */
    public static void write(Profile profile, Path path, OutputFormat format, ReportOptions options)
            throws IOException {
        AtomicFileWriter.write(path, out -> write(profile, out, format, options));
    }

    /** Writes the profile to a stream in the given format, shaped by {@code options}; {@code out} stays open. */
    public static void write(Profile profile, OutputStream out, OutputFormat format, ReportOptions options)
            throws IOException {
        Profile filtered = ProfileTransforms.filter(profile, options.filter(), options.style());
        if (format == OutputFormat.HTML || format == OutputFormat.COLLAPSED || format == OutputFormat.TEXT) {
            filtered = ProfileTransforms.spans(filtered, options.spanFrames());
        }
        switch (format) {
            // FlameGraph reverses itself, drawing the result as an icicle as async-profiler does.
            case HTML -> new HtmlFlameGraphWriter(options.title(), options.reverse(), options.style()).write(filtered, out);
            case COLLAPSED -> new CollapsedWriter(options.style()).write(reversedIfAsked(filtered, options), out);
            case PPROF -> new PprofWriter().write(reversedIfAsked(filtered, options), out);
            case JFR -> new JfrProfileWriter().write(reversedIfAsked(filtered, options), out);
            case OTLP -> new OtlpWriter(OtlpResource.UNNAMED).write(reversedIfAsked(filtered, options), out);
            case TEXT -> new TextSummaryWriter(options.text(), options.style()).write(filtered, out);
        }
    }

    /**
     * Writes the profiles of one run's events (cpu, alloc, lock) as one JFR recording ({@link JfrProfileWriter}),
     * each shaped by {@code options}, atomically.
     */
    public static void writeJfr(List<Profile> profiles, Path path, ReportOptions options) throws IOException {
        List<Profile> shaped = shaped(profiles, options);
        AtomicFileWriter.write(path, out -> new JfrProfileWriter().write(shaped, out));
    }

    /**
     * Writes the profiles of one run's events (cpu, alloc, lock) as one OTLP message of {@code resource}
     * ({@link OtlpWriter}), each shaped by {@code options}, atomically.
     */
    public static void writeOtlp(List<Profile> profiles, Path path, ReportOptions options, OtlpResource resource)
            throws IOException {
        List<Profile> shaped = shaped(profiles, options);
        AtomicFileWriter.write(path, out -> new OtlpWriter(resource).write(shaped, out));
    }

    /** The profiles as {@code options} shape them: filtered, their frames styled, reversed where asked. */
    public static List<Profile> shaped(List<Profile> profiles, ReportOptions options) {
        List<Profile> shaped = new ArrayList<>(profiles.size());
        for (Profile p : profiles) {
            shaped.add(ProfileTransforms.apply(p, options));
        }
        return shaped;
    }

    /** The events of several profiles as one name for {@code %e}: {@code cpu+alloc+lock}. */
    public static String eventsName(List<Profile> profiles) {
        StringBuilder sb = new StringBuilder();
        for (Profile p : profiles) {
            sb.append(sb.length() == 0 ? "" : "+").append(p.info().event());
        }
        return sb.toString();
    }

    /**
     * Reads a profile from collapsed stacks, from an HTML flame graph (one written by mixflame or by
     * async-profiler's converter; named {@code .html} or starting like HTML), from a JFR recording (starting
     * with JFR's magic bytes; {@link JfrProfileReader}) or from a gzip'd pprof profile ({@link PprofReader}), within
     * {@link ReadBounds#DEFAULT}. Collapsed stacks and
     * HTML are read as a stream, so a FIFO or a device works too; a recording is read as a file.
     *
     * @param warnings told about each malformed line that was skipped, as {@code line N: why}
     * @throws IOException with a one-line message naming the file when it is missing, is a directory, is
     *                     gzip-compressed but no pprof profile, is HTML that is not a flame graph, is a
     *                     JFR recording that is corrupt or that this runtime cannot read (no {@code jdk.jfr}
     *                     module), goes past a bound, or has counts that add up past {@link Long#MAX_VALUE}
     */
    public static Profile read(Path path, Consumer<String> warnings) throws IOException {
        return read(path, warnings, ReadBounds.DEFAULT);
    }

    /** {@link #read(Path, Consumer)} within other bounds. */
    static Profile read(Path path, Consumer<String> warnings, ReadBounds bounds) throws IOException {
        if (Files.isDirectory(path)) {
            throw new FileSystemException(path.toString(), null, "is a directory, not a profile");
        }
        if (OutputFormat.OTLP.matches(path)) {
            // OTLP profiles are written for collectors and backends; the tools here read what they write otherwise.
            throw new IOException(path + ": is an OTLP profile, which mixflame writes but does not read (profile to "
                    + ".jfr, .pb.gz or .collapsed to read it back)");
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 64 * 1024)) {
            byte[] head = peek(in);
            if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
                try {
                    return new PprofReader(bounds).read(in, warnings);
                } catch (IOException e) {
                    throw new IOException(path + ": is gzip-compressed but not a readable pprof profile: "
                            + e.getMessage(), e);
                }
            }
            if (isJfr(head)) {
                return readJfr(path, bounds);
            }
            try {
                return isHtml(path, head) ? readHtml(in, warnings, bounds) : new CollapsedReader(bounds).read(in, warnings);
            } catch (IOException e) {
                throw new IOException(path + ": " + e.getMessage(), e);
            }
        }
    }

    /** The first bytes of the stream, which is then reset to its start. */
    private static byte[] peek(InputStream in) throws IOException {
        in.mark(PEEK_BYTES);
        byte[] head = in.readNBytes(PEEK_BYTES);
        in.reset();
        return head;
    }

    private static boolean isJfr(byte[] head) {
        return head.length >= 4 && head[0] == 'F' && head[1] == 'L' && head[2] == 'R' && head[3] == 0;
    }

    private static Profile readJfr(Path path, ReadBounds bounds) throws IOException {
        // A jlinked runtime may lack jdk.jfr; the reader's class would then fail to load with an Error.
        if (ModuleLayer.boot().findModule("jdk.jfr").isEmpty()) {
            throw new IOException(path + ": is a JFR recording, and this Java runtime has no jdk.jfr module to "
                    + "read it (run report on a full JDK)");
        }
        try {
            return new JfrProfileReader(bounds).read(path);
        } catch (IOException e) {
            throw new IOException(path + ": " + e.getMessage(), e);
        }
    }

    private static boolean isHtml(Path path, byte[] head) {
        String start = new String(head, StandardCharsets.UTF_8).stripLeading();
        return path.toString().toLowerCase(Locale.ROOT).endsWith(".html")
                || start.regionMatches(true, 0, "<!doctype html", 0, 14)
                || start.regionMatches(true, 0, "<html", 0, 5);
    }

    private static Profile readHtml(InputStream in, Consumer<String> warnings, ReadBounds bounds)
            throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        FlameGraph graph = new FlameGraph(args);
        FlameGraphPageReader page = new FlameGraphPageReader(in, bounds);
        CollapsedReader.Parse parse = new CollapsedReader(bounds).parse(warnings);
        BoundedLineSplitter collapsed = parse.lines();
        try {
            FlameGraphs.onDeepStack(() -> {
                graph.parseHtml(page);
                // Straight into the parse, line by line: the graph's stacks spelled out can be far larger than
                // the page.
                graph.dump(new PrintStream(collapsed, false, StandardCharsets.UTF_8));
                return null;
            });
        } catch (RuntimeException e) {
            // FlameGraph's parser assumes its own layout and fails in any way on other pages.
            throw new IOException("is HTML but not a flame graph that can be read back");
        }
        collapsed.finish();
        return parse.profile().withInfo(infoFromTitle(page.heading() == null ? "" : page.heading()));
    }

    private static ProfileInfo infoFromTitle(String html) {
        Matcher ours = OUR_TITLE.matcher(html);
        if (ours.find()) {
            return new ProfileInfo(ours.group(2), ours.group(1), 0, 0, 0, List.of());
        }
        Matcher h1 = H1.matcher(html);
        String note = h1.find() ? "read from a flame graph titled: " + h1.group(1) : null;
        ProfileInfo info = new ProfileInfo("html", "unknown", 0, 0, 0, List.of());
        return note == null ? info : info.withNote(note);
    }

    private static Profile reversedIfAsked(Profile profile, ReportOptions options) {
        return options.reverse() ? ProfileTransforms.reverse(profile) : profile;
    }
}
