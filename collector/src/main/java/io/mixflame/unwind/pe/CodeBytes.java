package io.mixflame.unwind.pe;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.MemoryWords;

/** The first bytes of code at a pc, as many as could be read (possibly none), for epilog recognition. */
final class CodeBytes {
    /** Enough for the longest epilog recognised: add rsp, imm32 + eight two-byte pops + an indirect jmp. */
    static final int LENGTH = 32;

    private final byte[] bytes;
    private final int count;

    private CodeBytes(byte[] bytes, int count) {
        this.bytes = bytes;
        this.count = count;
    }

    /** Reads up to {@link #LENGTH} bytes, 8 at a time, stopping at the first unreadable word. */
    static CodeBytes read(MemoryWords memory, long pc) {
        byte[] bytes = new byte[LENGTH];
        int count = 0;
        while (count < LENGTH) {
            long word;
            try {
                word = memory.readLong(pc + count);
            } catch (MemoryReadException e) {
                break;
            }
            for (int i = 0; i < 8; i++) {
                bytes[count + i] = (byte) (word >>> (8 * i));
            }
            count += 8;
        }
        return new CodeBytes(bytes, count);
    }

    /** Number of bytes available. */
    int count() {
        return count;
    }

    /** Whether at least {@code n} bytes are available from {@code at}. */
    boolean has(int at, int n) {
        return at + n <= count;
    }

    /** The unsigned byte at an index (which must be available). */
    int u8(int at) {
        return bytes[at] & 0xff;
    }

    /** The signed byte at an index. */
    int s8(int at) {
        return bytes[at];
    }

    /** The signed little-endian 32-bit value at an index. */
    int s32(int at) {
        return u8(at) | u8(at + 1) << 8 | u8(at + 2) << 16 | u8(at + 3) << 24;
    }
}
