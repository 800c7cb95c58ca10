package io.mixflame.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An output stream that cuts what is written to it into lines at {@code \n} and hands each to a handler, never
 * holding more than one line. A line longer than the bound fails the stream, as does a failing handler; once
 * failed, every later write throws the same failure, so that even a writer that swallows exceptions
 * (PrintStream) cannot push data past it. Reading a file is {@code in.transferTo(splitter)} then
 * {@link #finish()}.
 */
final class BoundedLineSplitter extends OutputStream {

    /** Receives one line, without its {@code \n}; the array is reused once the call returns. */
    @FunctionalInterface
    interface LineHandler {
        void line(byte[] bytes, int length, long lineNumber) throws IOException;
    }

    private final int maxLineBytes;
    private final LineHandler handler;
    private byte[] line = new byte[8192];
    private int length;
    private long lineNumber;
    private IOException failure;
    private boolean finished;

    /** Lines of at most {@code maxLineBytes} bytes go to {@code handler}. */
    BoundedLineSplitter(int maxLineBytes, LineHandler handler) {
        this.maxLineBytes = maxLineBytes;
        this.handler = handler;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkUsable();
        try {
            int end = off + len;
            while (off < end) {
                int newline = indexOf(b, off, end);
                int stop = newline < 0 ? end : newline;
                append(b, off, stop - off);
                if (newline < 0) {
                    return;
                }
                emit();
                off = newline + 1;
            }
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /** Hands over the last line if it had no line break, then throws the failure, if any, of the stream. */
    void finish() throws IOException {
        checkUsable();
        finished = true;
        if (length > 0) {
            try {
                emit();
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
    }

    /** Does nothing: the last line is handed over by {@link #finish()}, which also reports failures. */
    @Override
    public void close() {
        // PrintStream closes what it wraps and swallows what close throws; finish() cannot be skipped that way.
    }

    /** The line as text, or null when it is not well-formed UTF-8. */
    static String utf8OrNull(byte[] bytes, int length) {
        String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') < 0) {
            return text;
        }
        // The lenient decoder above wrote U+FFFD for malformed bytes, or the line holds a real U+FFFD.
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, 0, length));
            return text;
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private void checkUsable() throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (finished) {
            throw new IOException("stream already finished");
        }
    }

    private void append(byte[] b, int off, int len) throws IOException {
        if (len > maxLineBytes - length) {
            throw ReadBounds.exceeded(lineNumber + 1, maxLineBytes, "bytes in one line");
        }
        if (length + len > line.length) {
            line = Arrays.copyOf(line, (int) Math.min(maxLineBytes, Math.max(length + len, 2L * line.length)));
        }
        System.arraycopy(b, off, line, length, len);
        length += len;
    }

    private void emit() throws IOException {
        lineNumber++;
        int n = length;
        length = 0;
        handler.line(line, n, lineNumber);
    }

    private static int indexOf(byte[] b, int from, int end) {
        for (int i = from; i < end; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
