package io.mixflame.report;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Makes a flame graph page from async-profiler's FlameGraph safe to open: the frame names, which come from the
 * profiled application, sit in the page's script block as the string literals of its {@code cpool} (one a line
 * between the lines {@code const cpool = [} and {@code ];}), where FlameGraph escapes only {@code \} and
 * {@code '}. This stream, which the page is written through, also writes there {@code <} as {@code \u003c} (so
 * no {@code </script>} or {@code <!--} can end or change the script block) and the line separators U+2028 and
 * U+2029 as {@code \u2028} and {@code \u2029} (older JavaScript ends a string literal at them). A browser shows
 * the true name; {@link #unescape} undoes this for reading a page back.
 *
 * <p>It works on the UTF-8 bytes as they stream by, holding at most two bytes of an unfinished character.
 */
final class ScriptSafeHtmlStream extends FilterOutputStream {

    private static final byte[] LESS_THAN = bytes("\\u003c");
    private static final byte[] LINE_SEPARATOR = bytes("\\u2028");
    private static final byte[] PARAGRAPH_SEPARATOR = bytes("\\u2029");
    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
    private static final byte[] SEPARATOR_START = {(byte) 0xe2, (byte) 0x80};
    private static final byte[] CPOOL_START = bytes("const cpool");

    private final byte[] lineHead = new byte[CPOOL_START.length];
    private int lineHeadLength;
    private boolean inCpool;
    // Bytes of SEPARATOR_START seen and not yet written: 0, 1 or 2.
    private int pending;

    ScriptSafeHtmlStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        int end = off + len;
        int unwritten = off;
        for (int i = off; i < end; i++) {
            int c = b[i] & 0xff;
            if (pending > 0) {
                if (pending == 1 && c == 0x80) {
                    pending = 2;
                    unwritten = i + 1;
                    continue;
                }
                if (pending == 2 && (c == 0xa8 || c == 0xa9)) {
                    out.write(c == 0xa8 ? LINE_SEPARATOR : PARAGRAPH_SEPARATOR);
                    pending = 0;
                    unwritten = i + 1;
                    continue;
                }
                out.write(SEPARATOR_START, 0, pending);
                pending = 0;
            }
            if (c == '\n') {
                endLine();
                continue;
            }
            if (lineHeadLength < lineHead.length) {
                lineHead[lineHeadLength++] = (byte) c;
            }
            if (inCpool && (c == '<' || c == 0xe2)) {
                out.write(b, unwritten, i - unwritten);
                unwritten = i + 1;
                if (c == '<') {
                    out.write(LESS_THAN);
                } else {
                    pending = 1;
                }
            }
        }
        out.write(b, unwritten, end - unwritten);
    }

    /** Writes what is held of an unfinished character, then closes the stream beneath. */
    @Override
    public void close() throws IOException {
        if (pending > 0) {
            out.write(SEPARATOR_START, 0, pending);
            pending = 0;
        }
        super.close();
    }

    /**
     * A cpool line of a page with the escapes this stream writes turned back into their characters, so that
     * FlameGraph.parseHtml, whose own unescaping knows only {@code \\} and {@code \'}, reads the true names.
     * A backslash that is itself escaped ({@code \\u003c}, a name with a literal backslash) stays as it is.
     */
    static String unescape(String line) {
        if (!line.contains("\\u")) {
            return line;
        }
        StringBuilder sb = new StringBuilder(line.length());
        int n = line.length();
        for (int i = 0; i < n; i++) {
            char c = line.charAt(i);
            if (c != '\\' || i + 1 == n) {
                sb.append(c);
                continue;
            }
            char escaped = escapedBy(line, i);
            if (escaped != 0) {
                sb.append(escaped);
                i += 5;
            } else {
                // Any other escape, a pair of backslashes included, passes whole, so its second character is
                // never taken for the start of an escape.
                sb.append(c).append(line.charAt(i + 1));
                i++;
            }
        }
        return sb.toString();
    }

    /** The character of one of this stream's escapes at {@code at}, or 0 when there is none. */
    private static char escapedBy(String line, int at) {
        if (line.startsWith("\\u003c", at)) {
            return '<';
        }
        if (line.startsWith("\\u2028", at)) {
            return '\u2028';
        }
        if (line.startsWith("\\u2029", at)) {
            return '\u2029';
        }
        return 0;
    }

    private void endLine() {
        if (!inCpool && lineHeadLength == CPOOL_START.length && startsWithCpool()) {
            inCpool = true;
        } else if (inCpool && lineHeadLength > 0 && lineHead[0] == ']') {
            inCpool = false;
        }
        lineHeadLength = 0;
    }

    private boolean startsWithCpool() {
        for (int i = 0; i < CPOOL_START.length; i++) {
            if (lineHead[i] != CPOOL_START[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
