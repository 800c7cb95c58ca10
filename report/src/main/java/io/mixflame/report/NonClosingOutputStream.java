package io.mixflame.report;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Passes writes through but only flushes on close: for handing a caller's stream to code (GZIPOutputStream,
 * FlameGraph.dump) that closes what it writes to, when the stream belongs to someone else.
 */
final class NonClosingOutputStream extends FilterOutputStream {

    NonClosingOutputStream(OutputStream out) {
        super(out);
    }

    // FilterOutputStream would write an array one byte at a time.
    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
        out.flush();
    }
}
