package io.mixflame.testsupport;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds an x64 UNWIND_INFO byte by byte for tests. Codes are added in array order — the prolog's last
 * operation first, as the linker lays them out — and register numbers are Windows' (0 rax, 1 rcx, 2 rdx, 3 rbx,
 * 4 rsp, 5 rbp, 6 rsi, 7 rdi, 8–15 r8–r15).
 */
public final class UnwindInfoBytes {
    private int version = 1;
    private int flags;
    private int prologSize;
    private int frameRegister;
    private int frameOffset;
    private final List<Integer> slots = new ArrayList<>();
    private long[] chained;
    private Integer slotCountOverride;

    public UnwindInfoBytes version(int v) {
        version = v;
        return this;
    }

    public UnwindInfoBytes flags(int f) {
        flags = f;
        return this;
    }

    public UnwindInfoBytes prolog(int size) {
        prologSize = size;
        return this;
    }

    /** Frame register (Windows number) and its offset in units of 16 bytes. */
    public UnwindInfoBytes frame(int register, int scaledOffset) {
        frameRegister = register;
        frameOffset = scaledOffset;
        return this;
    }

    /** Claims a count of code slots other than the real one (for malformed data). */
    public UnwindInfoBytes slotCount(int count) {
        slotCountOverride = count;
        return this;
    }

    public UnwindInfoBytes code(int offset, int op, int info) {
        slots.add(offset | (op | info << 4) << 8);
        return this;
    }

    /** A raw 16-bit extra slot. */
    public UnwindInfoBytes slot(int value) {
        slots.add(value & 0xffff);
        return this;
    }

    public UnwindInfoBytes push(int offset, int register) {
        return code(offset, 0, register);
    }

    /** UWOP_ALLOC_SMALL of 8–128 bytes. */
    public UnwindInfoBytes allocSmall(int offset, int bytes) {
        return code(offset, 2, bytes / 8 - 1);
    }

    /** UWOP_ALLOC_LARGE, 16-bit scaled form. */
    public UnwindInfoBytes allocLarge16(int offset, int bytes) {
        return code(offset, 1, 0).slot(bytes / 8);
    }

    /** UWOP_ALLOC_LARGE, 32-bit unscaled form. */
    public UnwindInfoBytes allocLarge32(int offset, long bytes) {
        return code(offset, 1, 1).slot((int) bytes).slot((int) (bytes >>> 16));
    }

    public UnwindInfoBytes setFpreg(int offset) {
        return code(offset, 3, 0);
    }

    /** UWOP_SAVE_NONVOL at a byte offset (a multiple of 8) from the frame base. */
    public UnwindInfoBytes saveNonvol(int offset, int register, int byteOffset) {
        return code(offset, 4, register).slot(byteOffset / 8);
    }

    public UnwindInfoBytes saveNonvolFar(int offset, int register, long byteOffset) {
        return code(offset, 5, register).slot((int) byteOffset).slot((int) (byteOffset >>> 16));
    }

    public UnwindInfoBytes saveXmm128(int offset, int register, int byteOffset) {
        return code(offset, 8, register).slot(byteOffset / 16);
    }

    public UnwindInfoBytes saveXmm128Far(int offset, int register, long byteOffset) {
        return code(offset, 9, register).slot((int) byteOffset).slot((int) (byteOffset >>> 16));
    }

    public UnwindInfoBytes machFrame(int offset, boolean errorCode) {
        return code(offset, 10, errorCode ? 1 : 0);
    }

    /** Chains to another RUNTIME_FUNCTION (sets UNW_FLAG_CHAININFO). */
    public UnwindInfoBytes chainTo(long begin, long end, long unwindInfoRva) {
        flags |= 4;
        chained = new long[] {begin, end, unwindInfoRva};
        return this;
    }

    public byte[] toByteArray() {
        LittleEndianWriter w = new LittleEndianWriter();
        w.u8(version | flags << 3).u8(prologSize)
                .u8(slotCountOverride != null ? slotCountOverride : slots.size())
                .u8(frameRegister | frameOffset << 4);
        slots.forEach(w::u16);
        if (slots.size() % 2 != 0) {
            w.u16(0);
        }
        if (chained != null) {
            w.u32(chained[0]).u32(chained[1]).u32(chained[2]);
        }
        return w.toByteArray();
    }
}
