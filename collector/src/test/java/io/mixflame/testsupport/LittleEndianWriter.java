package io.mixflame.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes the little-endian integers, LEB128 numbers and C strings that ELF and DWARF data are made of, for tests
 * that build such data by hand. Values already written can be patched (lengths known only at the end).
 */
public final class LittleEndianWriter {
    private byte[] bytes = new byte[64];
    private int size;

    /** Bytes written so far. */
    public int size() {
        return size;
    }

    public LittleEndianWriter u8(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
        return this;
    }

    public LittleEndianWriter u16(int value) {
        return u8(value).u8(value >>> 8);
    }

    public LittleEndianWriter u32(long value) {
        return u16((int) value).u16((int) (value >>> 16));
    }

    public LittleEndianWriter u64(long value) {
        return u32(value).u32(value >>> 32);
    }

    /** Unsigned LEB128. */
    public LittleEndianWriter uleb(long value) {
        do {
            int b = (int) (value & 0x7f);
            value >>>= 7;
            u8(value != 0 ? b | 0x80 : b);
        } while (value != 0);
        return this;
    }

    /** Signed LEB128. */
    public LittleEndianWriter sleb(long value) {
        while (true) {
            int b = (int) (value & 0x7f);
            value >>= 7;
            boolean done = value == 0 && (b & 0x40) == 0 || value == -1 && (b & 0x40) != 0;
            u8(done ? b : b | 0x80);
            if (done) {
                return this;
            }
        }
    }

    /** A NUL-terminated UTF-8 string. */
    public LittleEndianWriter cstring(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8)).u8(0);
    }

    public LittleEndianWriter bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, size, b.length);
        size += b.length;
        return this;
    }

    /** Writes zeros until the size is a multiple of {@code alignment}. */
    public LittleEndianWriter align(int alignment) {
        while (size % alignment != 0) {
            u8(0);
        }
        return this;
    }

    /** Overwrites bytes already written, from {@code position}. */
    public void patch(int position, byte[] replacement) {
        System.arraycopy(replacement, 0, bytes, position, replacement.length);
    }

    /** Overwrites 4 bytes at {@code position}. */
    public void patchU32(int position, long value) {
        patch(position, new LittleEndianWriter().u32(value).toByteArray());
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
