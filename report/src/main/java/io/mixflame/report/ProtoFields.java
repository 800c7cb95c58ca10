package io.mixflame.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The fields of one protobuf message in a byte array, read in order: tag, then a varint or a length-delimited
 * payload (sub-message, string, packed numbers). Every length is checked against the message's end, so a truncated
 * or corrupt file fails with an {@link IOException} rather than reading past it.
 *
 * <p>Written here rather than taken from protobuf-java: reading pprof needs varints and length-delimited fields only,
 * and the library would add two megabytes to the agent's jar, which is loaded into production JVMs.
 */
final class ProtoFields {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private final int end;
    private int position;
    private int field;
    private int wireType;

    /** The message in {@code bytes[start, end)}. */
    ProtoFields(byte[] bytes, int start, int end) {
        this.bytes = bytes;
        this.position = start;
        this.end = end;
    }

    /** Moves to the next field; false at the message's end. */
    boolean next() throws IOException {
        if (position >= end) {
            return false;
        }
        long tag = varint();
        field = (int) (tag >>> 3);
        wireType = (int) (tag & 7);
        if (field <= 0) {
            throw new IOException("malformed protobuf: field number " + field);
        }
        return true;
    }

    /** The current field's number. */
    int field() {
        return field;
    }

    /** The current field's wire type. */
    int wireType() {
        return wireType;
    }

    /** The current field as a varint. */
    long varint() throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= end) {
                throw new IOException("malformed protobuf: a number runs past its message");
            }
            byte b = bytes[position++];
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IOException("malformed protobuf: a number longer than ten bytes");
    }

    /** The current length-delimited field as a message of its own. */
    ProtoFields message() throws IOException {
        int length = length();
        ProtoFields inner = new ProtoFields(bytes, position, position + length);
        position += length;
        return inner;
    }

    /** The current length-delimited field as UTF-8 text. */
    String string() throws IOException {
        int length = length();
        String s = new String(bytes, position, length, StandardCharsets.UTF_8);
        position += length;
        return s;
    }

    /**
     * The current field as repeated numbers: a packed run (length-delimited) gives all of them, a varint one. Each
     * goes to {@code sink}.
     */
    void numbers(NumberSink sink) throws IOException {
        if (wireType == LENGTH_DELIMITED) {
            ProtoFields packed = message();
            while (packed.position < packed.end) {
                sink.accept(packed.varint());
            }
        } else if (wireType == VARINT) {
            sink.accept(varint());
        } else {
            skip();
        }
    }

    /** Passes over the current field. */
    void skip() throws IOException {
        switch (wireType) {
            case VARINT -> varint();
            case FIXED64 -> advance(8);
            case LENGTH_DELIMITED -> advance(length());
            case FIXED32 -> advance(4);
            default -> throw new IOException("malformed protobuf: wire type " + wireType);
        }
    }

    private int length() throws IOException {
        if (wireType != LENGTH_DELIMITED) {
            throw new IOException("malformed protobuf: field " + field + " is not length-delimited");
        }
        long length = varint();
        if (length < 0 || length > end - position) {
            throw new IOException("malformed protobuf: field " + field + " runs past its message");
        }
        return (int) length;
    }

    private void advance(int n) throws IOException {
        if (n > end - position) {
            throw new IOException("malformed protobuf: field " + field + " runs past its message");
        }
        position += n;
    }

    /** Takes numbers one by one. */
    interface NumberSink {
        void accept(long value) throws IOException;
    }
}
