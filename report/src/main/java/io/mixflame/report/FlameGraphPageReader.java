package io.mixflame.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

/**
 * The text of an HTML flame graph page, for FlameGraph.parseHtml, read within {@link ReadBounds}: a line
 * longer than the bound, a page of more lines than the bound, a node deeper than the stack bound or names
 * longer in all than the text bound fail the read with one line. Lines must be UTF-8. The cpool lines (the
 * frame names) are handed on with the escapes of {@link ScriptSafeHtmlStream} undone, which parseHtml does
 * not know. The page's {@code <h1>} line is kept for the caller.
 */
final class FlameGraphPageReader extends Reader {

    private static final int CHUNK = 16 * 1024;

    private final InputStream in;
    private final ReadBounds bounds;
    private final BoundedLineSplitter lines;
    private final byte[] chunk = new byte[CHUNK];
    // Lines ready to be read: at most those of one chunk plus one line of the bound.
    private final StringBuilder pending = new StringBuilder();
    private int pendingStart;
    private boolean ended;
    private Section section = Section.HEAD;
    private long cpoolChars;
    private long level;
    private String heading;

    private enum Section { HEAD, CPOOL, FRAMES }

    FlameGraphPageReader(InputStream in, ReadBounds bounds) {
        this.in = in;
        this.bounds = bounds;
        this.lines = new BoundedLineSplitter(bounds.maxLineBytes(), this::line);
    }

    /** The first line starting with {@code <h1} read so far, or null. */
    String heading() {
        return heading;
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (pendingStart == pending.length()) {
            pending.setLength(0);
            pendingStart = 0;
            if (ended) {
                return -1;
            }
            int n = in.read(chunk);
            if (n < 0) {
                ended = true;
                lines.finish();
            } else {
                lines.write(chunk, 0, n);
            }
        }
        int n = Math.min(len, pending.length() - pendingStart);
        pending.getChars(pendingStart, pendingStart + n, cbuf, off);
        pendingStart += n;
        return n;
    }

    @Override
    public void close() {
        // The caller owns the stream.
    }

    private void line(byte[] bytes, int length, long lineNumber) throws IOException {
        if (lineNumber > bounds.maxPageLines()) {
            throw ReadBounds.exceeded(lineNumber, bounds.maxPageLines(), "lines in one flame graph page");
        }
        String line = BoundedLineSplitter.utf8OrNull(bytes, length);
        if (line == null) {
            throw new IOException("line " + lineNumber + ": is not UTF-8 text");
        }
        switch (section) {
            case HEAD -> {
                if (heading == null && line.startsWith("<h1")) {
                    heading = line;
                }
                if (line.startsWith("const cpool")) {
                    section = Section.CPOOL;
                }
            }
            case CPOOL -> {
                if (line.startsWith("'")) {
                    line = ScriptSafeHtmlStream.unescape(line);
                    cpoolChars += line.length();
                    if (cpoolChars > bounds.maxTextChars()) {
                        throw ReadBounds.exceeded(lineNumber, bounds.maxTextChars(),
                                "characters of frame names in one read");
                    }
                } else if (line.startsWith("]")) {
                    section = Section.FRAMES;
                }
            }
            case FRAMES -> checkDepth(line, lineNumber);
        }
        pending.append(line).append('\n');
    }

    /**
     * Follows the level of the graph's nodes ({@code f(key,level,…)} sets it, {@code u(…)} goes one deeper),
     * because parsing the page and drawing it again recurse once per level.
     */
    private void checkDepth(String line, long lineNumber) throws IOException {
        if (line.startsWith("u(")) {
            level++;
        } else if (line.startsWith("f(")) {
            int first = line.indexOf(',');
            int second = first < 0 ? -1 : line.indexOf(',', first + 1);
            if (second > first + 1) {
                try {
                    level = Long.parseLong(line, first + 1, second, 10);
                } catch (NumberFormatException e) {
                    return; // parseHtml refuses the line itself
                }
            }
        }
        if (level > bounds.maxStackDepth()) {
            throw ReadBounds.exceeded(lineNumber, bounds.maxStackDepth(), "frames in one stack");
        }
    }
}
