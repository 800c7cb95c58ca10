package io.mixflame.image.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A bounded little-endian reader over part of a buffer, with the LEB128 forms DWARF uses. Every read checks its
 * bounds and throws {@link ElfFormatException} instead of reading past the end, so that a truncated or corrupted
 * file costs an error, never a wild read or an endless loop.
 */
public final class ByteCursor {
    private final ByteBuffer buffer;
    private final int start;
    private final int limit;
    private int position;

    /** A cursor over {@code [start, start + length)} of the buffer. */
    public ByteCursor(ByteBuffer buffer, long start, long length) {
        if (start < 0 || length < 0 || start + length > buffer.capacity()) {
            throw new ElfFormatException("range [" + start + ", +" + length + ") is outside the data ("
                    + buffer.capacity() + " bytes)");
        }
        this.buffer = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.start = (int) start;
        this.limit = (int) (start + length);
        this.position = this.start;
    }

    /** Offset of the next byte, relative to the buffer's start. */
    public int position() {
        return position;
    }

    /** Moves to an absolute offset in the buffer, which must lie within the cursor's range. */
    public void seek(long absolute) {
        if (absolute < start || absolute > limit) {
            throw new ElfFormatException("seek to " + absolute + " outside [" + start + ", " + limit + ")");
        }
        position = (int) absolute;
    }

    /** Bytes left. */
    public int remaining() {
        return limit - position;
    }

    /** Whether the cursor is at its end. */
    public boolean atEnd() {
        return position >= limit;
    }

    /** The end offset of the cursor's range. */
    public int limit() {
        return limit;
    }

    private int take(int n) {
        if (n < 0 || n > limit - position) {
            throw new ElfFormatException("read of " + n + " bytes at " + position + " runs past " + limit);
        }
        int at = position;
        position += n;
        return at;
    }

    public void skip(long n) {
        if (n < 0 || n > limit - position) {
            throw new ElfFormatException("skip of " + n + " bytes at " + position + " runs past " + limit);
        }
        position += (int) n;
    }

    public int u8() {
        return buffer.get(take(1)) & 0xff;
    }

    public int u16() {
        return buffer.getShort(take(2)) & 0xffff;
    }

    public long u32() {
        return buffer.getInt(take(4)) & 0xffffffffL;
    }

    public int s32() {
        return buffer.getInt(take(4));
    }

    public long u64() {
        return buffer.getLong(take(8));
    }

    public short s16() {
        return buffer.getShort(take(2));
    }

    public long s64() {
        return u64();
    }

    /** Unsigned LEB128; values beyond 64 bits are an error. */
    public long uleb128() {
        long result = 0;
        int shift = 0;
        while (true) {
            int b = u8();
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            } else if ((b & 0x7f) != 0) {
                throw new ElfFormatException("LEB128 value too large at " + position);
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return result;
            }
            if (shift > 70) {
                throw new ElfFormatException("LEB128 value too long at " + position);
            }
        }
    }

    /** Signed LEB128. */
    public long sleb128() {
        long result = 0;
        int shift = 0;
        int b;
        do {
            b = u8();
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if (shift > 70) {
                throw new ElfFormatException("LEB128 value too long at " + position);
            }
        } while ((b & 0x80) != 0);
        if (shift < 64 && (b & 0x40) != 0) {
            result |= -1L << shift;
        }
        return result;
    }

    /** A NUL-terminated string. */
    public String cstring() {
        int end = position;
        while (end < limit && buffer.get(end) != 0) {
            end++;
        }
        if (end >= limit) {
            throw new ElfFormatException("unterminated string at " + position);
        }
        byte[] bytes = new byte[end - position];
        buffer.get(position, bytes);
        position = end + 1;
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A copy of the next {@code n} bytes. */
    public byte[] bytes(int n) {
        int at = take(n);
        byte[] out = new byte[n];
        buffer.get(at, out);
        return out;
    }
}
