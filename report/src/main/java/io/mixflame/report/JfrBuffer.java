package io.mixflame.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Bytes in JFR's encodings, growing up to a bound: integers as the JDK's varints (seven bits a byte, low bits
 * first, the ninth byte whole), strings inline as UTF-8 (encoding 3), never through a string pool, because
 * async-profiler's converter reads symbols only in that form.
 */
final class JfrBuffer {

    private static final byte STRING_NULL = 0;
    private static final byte STRING_UTF8 = 3;

    private final int maxBytes;
    private byte[] bytes = new byte[64];
    private int size;

    /** A buffer that refuses to grow past {@code maxBytes}. */
    JfrBuffer(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Appends {@code value} as the JDK writes a compressed integer (a negative long takes nine bytes). */
    JfrBuffer putVarLong(long value) throws IOException {
        ensure(9);
        long v = value;
        for (int i = 0; i < 8; i++) {
            if ((v & ~0x7fL) == 0) {
                bytes[size++] = (byte) v;
                return this;
            }
            bytes[size++] = (byte) (v & 0x7f | 0x80);
            v >>>= 7;
        }
        bytes[size++] = (byte) v;
        return this;
    }

    JfrBuffer putByte(int value) throws IOException {
        ensure(1);
        bytes[size++] = (byte) value;
        return this;
    }

    JfrBuffer putBoolean(boolean value) throws IOException {
        return putByte(value ? 1 : 0);
    }

    /** Appends a string inline as UTF-8 (the empty string too: the converter takes no other encoding of a symbol). */
    JfrBuffer putString(String text) throws IOException {
        if (text == null) {
            return putByte(STRING_NULL);
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        putByte(STRING_UTF8).putVarLong(utf8.length);
        return putBytes(utf8, 0, utf8.length);
    }

    JfrBuffer putBytes(byte[] b, int off, int len) throws IOException {
        ensure(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
        return this;
    }

    JfrBuffer put(JfrBuffer other) throws IOException {
        return putBytes(other.bytes, 0, other.size);
    }

    /** Empties the buffer for reuse. */
    JfrBuffer clear() {
        size = 0;
        return this;
    }

    int size() {
        return size;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /** The content as a key for maps: equal content, equal keys. */
    ByteBuffer asKey() {
        return ByteBuffer.wrap(toByteArray());
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(bytes, 0, size);
    }

    /** The number of bytes {@link #putVarLong} takes for {@code value}. */
    static int varLongSize(long value) {
        long v = value;
        for (int n = 1; n < 9; n++) {
            if ((v & ~0x7fL) == 0) {
                return n;
            }
            v >>>= 7;
        }
        return 9;
    }

    private void ensure(int more) throws IOException {
        if (more > maxBytes - size) {
            throw new IOException("a JFR section would be larger than " + maxBytes + " bytes");
        }
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max((long) bytes.length * 2, size + more)));
        }
    }
}
