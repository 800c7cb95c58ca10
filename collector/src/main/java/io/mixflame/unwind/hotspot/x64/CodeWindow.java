package io.mixflame.unwind.hotspot.x64;

import io.mixflame.unwind.CodeLineCache;
import io.mixflame.process.ProcessMemory;

/**
 * The first bytes of code at an address, as many as could be read, in a buffer reused from frame to frame: what
 * the prologue, epilogue and stub decoders look at. Offsets are from the address; reads beyond what was read
 * give -1, which no instruction byte matches.
 */
final class CodeWindow {
    /** Enough for the longest sequence decoded: an epilogue of vzeroupper, add, pop, a two-instruction poll, ret. */
    static final int LENGTH = 48;

    private final byte[] bytes = new byte[LENGTH];
    private int count;
    private long address;

    /** Fills the window with the code at {@code address}. */
    CodeWindow load(CodeLineCache cache, ProcessMemory memory, long address) {
        return load(cache, memory, address, null);
    }

    /** Fills the window with the code at {@code address}, which belongs to {@code owner} (see {@link CodeLineCache}). */
    CodeWindow load(CodeLineCache cache, ProcessMemory memory, long address, Object owner) {
        this.address = address;
        this.count = cache.copy(memory, address, bytes, LENGTH, owner);
        return this;
    }

    /** Fills the window from given bytes (tests, and code already at hand). */
    CodeWindow load(long address, byte[] code) {
        this.address = address;
        this.count = Math.min(code.length, LENGTH);
        System.arraycopy(code, 0, bytes, 0, count);
        return this;
    }

    /** The address of byte 0. */
    long address() {
        return address;
    }

    /** Whether {@code n} bytes from {@code at} were read. */
    boolean has(int at, int n) {
        return at >= 0 && at + n <= count;
    }

    /** The unsigned byte at {@code at}, or -1 when not read. */
    int u8(int at) {
        return has(at, 1) ? bytes[at] & 0xff : -1;
    }

    /** The signed byte at {@code at} (which must have been read). */
    int s8(int at) {
        return bytes[at];
    }

    /** The signed little-endian 32-bit value at {@code at} (which must have been read). */
    int s32(int at) {
        return u8(at) | u8(at + 1) << 8 | u8(at + 2) << 16 | u8(at + 3) << 24;
    }

    /** Whether the bytes from {@code at} are exactly {@code expected}. */
    boolean matches(int at, int[] expected) {
        if (!has(at, expected.length)) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if ((bytes[at + i] & 0xff) != expected[i]) {
                return false;
            }
        }
        return true;
    }
}
