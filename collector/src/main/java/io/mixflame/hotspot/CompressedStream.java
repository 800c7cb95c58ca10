package io.mixflame.hotspot;

import java.nio.ByteBuffer;

/**
 * HotSpot's compressed integers (the UNSIGNED5 scheme of the scopes, line-number and field streams): up to five
 * bytes, each below 192 ending the number. From JDK 20 on the byte 0 is excluded (every byte is stored plus one).
 */
final class CompressedStream {
    private static final int LOW = 192;
    private static final int MAX_BYTES = 5;

    private final ByteBuffer data;
    private final int excluded;
    private int position;

    CompressedStream(ByteBuffer data, int position, boolean excludesZero) {
        this.data = data;
        this.position = position;
        this.excluded = excludesZero ? 1 : 0;
    }

    /** The next unsigned value. */
    int readUnsigned() {
        int value = 0;
        int shift = 0;
        for (int i = 0; i < MAX_BYTES; i++) {
            if (position >= data.limit()) {
                throw new IllegalStateException("compressed stream runs past its data");
            }
            int b = data.get(position++) & 0xff;
            if (b < excluded) {
                throw new IllegalStateException("compressed stream holds an excluded byte");
            }
            value += (b - excluded) << shift;
            if (b < LOW || i == MAX_BYTES - 1) {
                return value;
            }
            shift += 6;
        }
        return value;
    }

    /** The next zig-zag signed value. */
    int readSigned() {
        int u = readUnsigned();
        return (u >>> 1) ^ -(u & 1);
    }

    /** The next raw byte. */
    int readByte() {
        if (position >= data.limit()) {
            throw new IllegalStateException("compressed stream runs past its data");
        }
        return data.get(position++) & 0xff;
    }

    int position() {
        return position;
    }
}
