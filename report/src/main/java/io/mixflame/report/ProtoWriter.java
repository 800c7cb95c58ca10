package io.mixflame.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes one protobuf message into a growing byte array, nested messages in place: {@link #begin} writes a field's tag
 * and leaves one byte for its length, the body is written after it, and {@link #end} puts the length there. Most
 * bodies (a sample, a location, a function) are under 128 bytes, whose length is that one byte; a longer body moves up
 * by the bytes its length needs more, once per level it is nested in, so nothing is built apart and copied into its
 * parent, and every length is the shortest varint, as protobuf's own encoders write it.
 *
 * <p>The message is bounded by the largest array Java gives, under protobuf's own limit of 2 GiB: past it the writer
 * fails rather than overflow.
 *
 * <p>Written here rather than taken from protobuf-java: the writers need varints, fixed64 and length-delimited fields
 * only, and the library would add megabytes to the agent loaded into production JVMs.
 */
final class ProtoWriter {
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;
    /** The largest array size every JVM allows. */
    private static final int MAX_SIZE = Integer.MAX_VALUE - 8;

    private byte[] buffer;
    private int size;

    /** A writer whose buffer starts at {@code initialCapacity} bytes and doubles as needed. */
    ProtoWriter(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
    }

    /** A varint field (int32, int64, uint64, an index or id). */
    ProtoWriter varint(int field, long value) {
        tag(field, VARINT);
        rawVarint(value);
        return this;
    }

    /** A fixed64 field. */
    ProtoWriter fixed64(int field, long value) {
        tag(field, FIXED64);
        reserve(8);
        for (int i = 0; i < 8; i++) {
            buffer[size++] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    /** A string field, in UTF-8. */
    ProtoWriter string(int field, String value) {
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A bytes field. */
    ProtoWriter bytes(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        rawVarint(value.length);
        reserve(value.length);
        System.arraycopy(value, 0, buffer, size, value.length);
        size += value.length;
        return this;
    }

    /**
     * Begins a length-delimited field (a nested message or a packed run of varints) whose body is what is written
     * until {@link #end} is given the position this returns.
     */
    int begin(int field) {
        tag(field, LENGTH_DELIMITED);
        reserve(1);
        size++;
        return size;
    }

    /** Ends the field {@link #begin} began at {@code bodyStart}, putting its body's length before the body. */
    void end(int bodyStart) {
        if (bodyStart < 1 || bodyStart > size) {
            throw new IllegalArgumentException("no field begins at " + bodyStart);
        }
        int length = size - bodyStart;
        int extra = varintSize(length) - 1;
        if (extra > 0) {
            reserve(extra);
            System.arraycopy(buffer, bodyStart, buffer, bodyStart + extra, length);
            size += extra;
        }
        int at = bodyStart - 1;
        int rest = length;
        while (rest >= 0x80) {
            buffer[at++] = (byte) (rest | 0x80);
            rest >>>= 7;
        }
        buffer[at] = (byte) rest;
    }

    /** One number of a packed run, written between {@link #begin} and {@link #end}. */
    void packedVarint(long value) {
        rawVarint(value);
    }

    private void rawVarint(long value) {
        reserve(10);
        while ((value & ~0x7FL) != 0) {
            buffer[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buffer[size++] = (byte) value;
    }

    /** The bytes written so far. */
    int size() {
        return size;
    }

    /** A copy of the message. */
    byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    /** Writes the message to {@code out}. */
    void writeTo(OutputStream out) throws IOException {
        out.write(buffer, 0, size);
    }

    private void tag(int field, int wireType) {
        rawVarint(((long) field << 3) | wireType);
    }

    private static int varintSize(int value) {
        return value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5;
    }

    private void reserve(int bytes) {
        if (bytes <= buffer.length - size) {
            return;
        }
        if (bytes > MAX_SIZE - size) {
            throw new IllegalStateException("a protobuf message over " + MAX_SIZE + " bytes");
        }
        long doubled = Math.max((long) buffer.length * 2, (long) size + bytes);
        buffer = Arrays.copyOf(buffer, (int) Math.min(doubled, MAX_SIZE));
    }
}
