package io.mixflame.unwind.hotspot.x64;

/**
 * The few x86-64 instructions HotSpot emits where a frame is built or taken down, recognised by their encodings.
 * Each method returns the length of that instruction at offset {@code at} of a {@link CodeWindow}, or 0 when
 * another instruction (or nothing that was read) is there.
 */
final class FrameInstructions {
    private static final int REX_W = 0x48;
    private static final int[] MOV_RBP_RSP = {REX_W, 0x89, 0xe5};
    private static final int[] MOV_RBP_RSP_ALTERNATE = {REX_W, 0x8b, 0xec};
    private static final int[] VZEROUPPER = {0xc5, 0xf8, 0x77};
    private static final int[] TEST_R10_EAX = {0x41, 0x85, 0x02};
    /** ModRM reg fields of the group-1 immediate forms, with mod 11: {@code sub rsp}, {@code add rsp}, {@code add rbp}. */
    static final int SUB_RSP = 0xec;
    static final int ADD_RSP = 0xc4;
    static final int ADD_RBP = 0xc5;

    private FrameInstructions() {
    }

    /** {@code push rbp}. */
    static int pushRbp(CodeWindow code, int at) {
        return code.u8(at) == 0x55 ? 1 : 0;
    }

    /** {@code mov rbp, rsp}, in either encoding. */
    static int movRbpRsp(CodeWindow code, int at) {
        return code.matches(at, MOV_RBP_RSP) || code.matches(at, MOV_RBP_RSP_ALTERNATE) ? 3 : 0;
    }

    /** Whether the code at {@code at} is {@code push rbp; mov rbp, rsp}: a stub that keeps a frame pointer. */
    static boolean buildsFramePointer(CodeWindow code, int at) {
        return pushRbp(code, at) == 1 && movRbpRsp(code, at + 1) == 3;
    }

    /** {@code pop rbp}. */
    static int popRbp(CodeWindow code, int at) {
        return code.u8(at) == 0x5d ? 1 : 0;
    }

    /** {@code leave}. */
    static int leave(CodeWindow code, int at) {
        return code.u8(at) == 0xc9 ? 1 : 0;
    }

    /** {@code ret}, {@code ret imm16} or {@code rep ret}. */
    static int ret(CodeWindow code, int at) {
        int b = code.u8(at);
        if (b == 0xc3) {
            return 1;
        }
        if (b == 0xc2 && code.has(at, 3)) {
            return 3;
        }
        return b == 0xf3 && code.u8(at + 1) == 0xc3 ? 2 : 0;
    }

    /** {@code vzeroupper}. */
    static int vzeroupper(CodeWindow code, int at) {
        return code.matches(at, VZEROUPPER) ? 3 : 0;
    }

    /**
     * An immediate {@code sub}/{@code add} on rsp or rbp ({@code operation} is {@link #SUB_RSP}, {@link #ADD_RSP}
     * or {@link #ADD_RBP}) with an 8- or 32-bit immediate, read by {@link #immediate}.
     */
    static int arithmetic(CodeWindow code, int at, int operation) {
        if (code.u8(at) != REX_W || code.u8(at + 2) != operation) {
            return 0;
        }
        int opcode = code.u8(at + 1);
        if (opcode == 0x83 && code.has(at, 4)) {
            return 4;
        }
        return opcode == 0x81 && code.has(at, 7) ? 7 : 0;
    }

    /** The immediate of an instruction {@link #arithmetic} recognised. */
    static int immediate(CodeWindow code, int at) {
        return code.u8(at + 1) == 0x83 ? code.s8(at + 3) : code.s32(at + 3);
    }

    /** A stack bang, {@code mov [rsp + disp], eax}: touches a page below the frame to be, builds nothing. */
    static int stackBang(CodeWindow code, int at) {
        if (code.u8(at) != 0x89 || code.u8(at + 2) != 0x24) {
            return 0;
        }
        int modrm = code.u8(at + 1);
        if (modrm == 0x84 && code.has(at, 7)) {
            return 7;
        }
        return modrm == 0x44 && code.has(at, 4) ? 4 : 0;
    }

    /** {@code mov [rsp + disp], rbp}: the caller's rbp saved into a frame already allocated. */
    static int storeRbp(CodeWindow code, int at) {
        if (code.u8(at) != REX_W || code.u8(at + 1) != 0x89 || code.u8(at + 3) != 0x24) {
            return 0;
        }
        return switch (code.u8(at + 2)) {
            case 0x2c -> 4;
            case 0x6c -> code.has(at, 5) ? 5 : 0;
            case 0xac -> code.has(at, 8) ? 8 : 0;
            default -> 0;
        };
    }

    /** The displacement of a {@link #storeRbp}. */
    static int storeRbpDisplacement(CodeWindow code, int at) {
        return switch (code.u8(at + 2)) {
            case 0x6c -> code.s8(at + 4);
            case 0xac -> code.s32(at + 4);
            default -> 0;
        };
    }

    /**
     * An instruction of a return's safepoint poll: {@code cmp rsp, [r15 + disp]} and {@code ja}, or (before JDK
     * 16) {@code mov r10, [r15 + disp]} and {@code test [r10], eax}. Neither touches the frame.
     */
    static int pollPart(CodeWindow code, int at) {
        int b0 = code.u8(at);
        int b1 = code.u8(at + 1);
        int b2 = code.u8(at + 2);
        if ((b0 == 0x49 && b1 == 0x3b && (b2 == 0x67 || b2 == 0xa7)) || (b0 == 0x4d && b1 == 0x8b && (b2 == 0x57 || b2 == 0x97))) {
            int length = b2 >= 0x80 ? 7 : 4;
            return code.has(at, length) ? length : 0;
        }
        if (code.matches(at, TEST_R10_EAX)) {
            return 3;
        }
        if (b0 == 0x77 && code.has(at, 2)) {
            return 2;
        }
        return b0 == 0x0f && b1 == 0x87 && code.has(at, 6) ? 6 : 0;
    }

    /**
     * The compare that starts an nmethod entry barrier, {@code cmp dword [r15 + disp], imm}: emitted once the frame
     * is built, before the frame counts as complete.
     */
    static int entryBarrier(CodeWindow code, int at) {
        int opcode = code.u8(at + 1);
        int modrm = code.u8(at + 2);
        if (code.u8(at) != 0x41 || (opcode != 0x81 && opcode != 0x83) || (modrm != 0x7f && modrm != 0xbf)) {
            return 0;
        }
        int length = 3 + (modrm == 0xbf ? 4 : 1) + (opcode == 0x81 ? 4 : 1);
        return code.has(at, length) ? length : 0;
    }

    /**
     * What follows an entry barrier's compare: {@code jne}/{@code je} to its slow path, or the {@code call} of that
     * path. Before the frame is complete these stand nowhere else after the verified entry.
     */
    static int entryBarrierBranch(CodeWindow code, int at) {
        int b0 = code.u8(at);
        int b1 = code.u8(at + 1);
        if ((b0 == 0x74 || b0 == 0x75) && code.has(at, 2)) {
            return 2;
        }
        if (b0 == 0x0f && (b1 == 0x84 || b1 == 0x85) && code.has(at, 6)) {
            return 6;
        }
        return b0 == 0xe8 && code.has(at, 5) ? 5 : 0;
    }

    /** A no-op of any of the lengths assemblers pad with: {@code 66* 90}, or {@code 66* 0f 1f r/m}. */
    static int nop(CodeWindow code, int at) {
        int prefixes = 0;
        while (prefixes < 4 && code.u8(at + prefixes) == 0x66) {
            prefixes++;
        }
        int i = at + prefixes;
        if (code.u8(i) == 0x90) {
            return prefixes + 1;
        }
        if (code.u8(i) != 0x0f || code.u8(i + 1) != 0x1f || !code.has(i, 3)) {
            return 0;
        }
        int modrm = code.u8(i + 2);
        int mode = modrm >>> 6;
        int rm = modrm & 7;
        int length = 3 + (rm == 4 && mode != 3 ? 1 : 0) + (mode == 1 ? 1 : mode == 2 ? 4 : 0);
        return code.has(i, length) ? prefixes + length : 0;
    }
}
