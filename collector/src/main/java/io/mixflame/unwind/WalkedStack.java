package io.mixflame.unwind;

import java.util.Arrays;

/**
 * The frames a walk found, innermost first, as addresses: each frame's pc (the interrupted instruction for the
 * first frame and after a signal, a return address otherwise) and sp. Reused from walk to walk.
 */
public final class WalkedStack {
    /** A frame of code. */
    public static final byte CODE = 0;
    /** The walk could not continue past the previous frame. */
    public static final byte UNKNOWN = 1;
    /** The walk stopped at its depth limit. */
    public static final byte TRUNCATED = 2;

    /** Why a walk ended. */
    public enum End {
        /** It reached the first frame of the thread. */
        COMPLETED,
        /** No unwinder knew the code of the last frame. */
        NO_UNWINDER,
        /** An unwinder could not find the caller. */
        UNWIND_FAILED,
        /** The caller's sp was outside the stack, not above the callee's, or misaligned. */
        BAD_STACK,
        /** The return address was not in executable memory. */
        BAD_PC,
        /** The depth limit was reached. */
        DEPTH_LIMIT
    }

    private long[] pcs = new long[128];
    private long[] sps = new long[128];
    private byte[] kinds = new byte[128];
    private boolean[] callSites = new boolean[128];
    private boolean[] guessed = new boolean[128];
    private int count;
    private End end = End.COMPLETED;

    void clear() {
        count = 0;
        end = End.COMPLETED;
    }

    void add(byte kind, long pc, long sp, boolean callSite, boolean guessedFp) {
        if (count == pcs.length) {
            int n = count * 2;
            pcs = Arrays.copyOf(pcs, n);
            sps = Arrays.copyOf(sps, n);
            kinds = Arrays.copyOf(kinds, n);
            callSites = Arrays.copyOf(callSites, n);
            guessed = Arrays.copyOf(guessed, n);
        }
        pcs[count] = pc;
        sps[count] = sp;
        kinds[count] = kind;
        callSites[count] = callSite;
        guessed[count] = guessedFp;
        count++;
    }

    void setEnd(End end) {
        this.end = end;
    }

    /** Number of frames, markers included. */
    public int size() {
        return count;
    }

    public long pc(int i) {
        return pcs[i];
    }

    public long sp(int i) {
        return sps[i];
    }

    /** {@link #CODE}, {@link #UNKNOWN} or {@link #TRUNCATED}. */
    public byte kind(int i) {
        return kinds[i];
    }

    /** Whether the frame's pc is a return address (look up {@code pc - 1} to name the calling code). */
    public boolean isCallSite(int i) {
        return callSites[i];
    }

    /** Whether the step that found this frame had to search the stack for a frame pointer. */
    public boolean guessedFramePointer(int i) {
        return guessed[i];
    }

    /** Why the walk ended. */
    public End end() {
        return end;
    }
}
