package io.mixflame.report;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        OutputFormat format = OutputFormat.fromPath(path.toString());
        AtomicFileWriter.write(path, out -> write(profile, out, format, options));
    }

    /** Writes the profile to a stream in the given format, shaped by {@code options}; {@code out} stays open. */
    public static void write(Profile profile, OutputStream out, OutputFormat format, ReportOptions options)
            throws IOException {
        Profile filtered = ProfileTransforms.filter(profile, options.include(), options.exclude());
        switch (format) {
            // FlameGraph reverses itself, drawing the result as an icicle as async-profiler does.
            case HTML -> new HtmlFlameGraphWriter(options.title(), options.reverse()).write(filtered, out);
            case COLLAPSED -> new CollapsedWriter().write(reversedIfAsked(filtered, options), out);
            case PPROF -> new PprofWriter().write(reversedIfAsked(filtered, options), out);
        }
    }

    /**
     * Reads a profile from collapsed stacks or from an HTML flame graph (one written by mixflame or by
     * async-profiler's converter; named {@code .html} or starting like HTML).
     *
     * @param warnings told about each malformed line that was skipped, as {@code line N: why}
     * @throws IOException with a message naming the file when it is missing, is a directory, is not UTF-8
     *                     text, is gzip-compressed (pprof cannot be read back), or is HTML that is not a
     *                     flame graph
     */
    public static Profile read(Path path, Consumer<String> warnings) throws IOException {
        if (Files.isDirectory(path)) {
            throw new FileSystemException(path.toString(), null, "is a directory, not a profile");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readAllBytes();
        }
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
            throw new IOException(path + ": is gzip-compressed (pprof?); only collapsed stacks or an HTML flame "
                    + "graph can be read");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException(path + ": is not UTF-8 text; expected collapsed stacks or an HTML flame graph");
        }
        if (isHtml(path, text)) {
            return readHtml(path, text, warnings);
        }
        try {
            return new CollapsedReader().read(new StringReader(text), warnings);
        } catch (IOException e) {
            throw new IOException(path + ": " + e.getMessage(), e);
        }
    }

    private static boolean isHtml(Path path, String text) {
        String start = text.stripLeading();
        return path.toString().toLowerCase(Locale.ROOT).endsWith(".html")
                || start.regionMatches(true, 0, "<!doctype html", 0, 14)
                || start.regionMatches(true, 0, "<html", 0, 5);
    }

    private static Profile readHtml(Path path, String html, Consumer<String> warnings) throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        FlameGraph graph = new FlameGraph(args);
        ByteArrayOutputStream collapsed = new ByteArrayOutputStream();
        try {
            graph.parseHtml(new StringReader(html));
            graph.dump(new PrintStream(collapsed, false, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            // FlameGraph's parser assumes its own layout and fails in any way on other pages.
            throw new IOException(path + ": is HTML but not a flame graph that can be read back");
        }
        Profile profile = new CollapsedReader().read(
                new StringReader(collapsed.toString(StandardCharsets.UTF_8)), warnings);
        return profile.withInfo(infoFromTitle(html));
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
