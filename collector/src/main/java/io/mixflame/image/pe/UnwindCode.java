package io.mixflame.image.pe;

/**
 * One decoded x64 unwind operation, its extra slots already folded into {@link #operand()}.
 *
 * @param codeOffset offset, from the function's start, of the end of the prolog instruction it describes
 * @param op         the operation ({@link #PUSH_NONVOL} ...)
 * @param opInfo     the 4-bit operation info: a Windows register number for pushes and saves, the error-code flag
 *                   for machine frames
 * @param operand    bytes allocated (allocations), offset in bytes from the frame base (saves), 0 otherwise;
 *                   for {@link #EPILOG} the raw value of its second slot
 */
public record UnwindCode(int codeOffset, int op, int opInfo, long operand) {
    public static final int PUSH_NONVOL = 0;
    public static final int ALLOC_LARGE = 1;
    public static final int ALLOC_SMALL = 2;
    public static final int SET_FPREG = 3;
    public static final int SAVE_NONVOL = 4;
    public static final int SAVE_NONVOL_FAR = 5;
    /** Version 2's epilog description; in version 1 the retired SAVE_XMM (two slots either way). */
    public static final int EPILOG = 6;
    /** Retired SAVE_XMM_FAR, three slots. */
    public static final int SPARE = 7;
    public static final int SAVE_XMM128 = 8;
    public static final int SAVE_XMM128_FAR = 9;
    public static final int PUSH_MACHFRAME = 10;
}
