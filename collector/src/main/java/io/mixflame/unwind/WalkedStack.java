package io.mixflame.unwind;

import java.util.Arrays;

/**
 * The frames a walk found, innermost first, as addresses: each frame's pc (the interrupted instruction for the
 * first frame and after a signal, a return address otherwise) and sp. Reused from walk to walk.
 */
public final class WalkedStack {
    /** A frame of native code (or code nobody claimed). */
    public static final byte CODE = 0;
    /** The walk could not continue past the previous frame. */
    public static final byte UNKNOWN = 1;
    /** The walk stopped at its depth limit. */
    public static final byte TRUNCATED = 2;
    /** An interpreted Java frame: {@link #detailA} is the Method*, {@link #detailB} the bcp. */
    public static final byte JAVA_INTERPRETED = 3;
    /** A frame of compiled Java code: {@link #detailA} is the code blob; the pc selects the inlined scopes. */
    public static final byte JAVA_COMPILED = 4;
    /** A frame of JVM-generated code that is not a Java method: {@link #detailA} is the code blob. */
    public static final byte JVM_STUB = 5;
    /**
     * Frames the walk could not get through and skipped: the walk went on from where the JVM recorded the thread's
     * last Java frame (see {@link NativeStackWalker#resumeAt}).
     */
    public static final byte MISSING = 6;

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
    private boolean[] signalFrames = new boolean[128];
    private long[] fps = new long[128];
    private long[] detailA = new long[128];
    private long[] detailB = new long[128];
    private int count;
    private End end = End.COMPLETED;
    /** Whether the walk ended because a step read a zero return address, rather than at a frame said to be the first. */
    private boolean zeroReturn;

    void clear() {
        count = 0;
        end = End.COMPLETED;
        zeroReturn = false;
    }

    void add(byte kind, long pc, long sp, boolean callSite, boolean guessedFp) {
        add(kind, pc, sp, 0, callSite, guessedFp);
    }

    void add(byte kind, long pc, long sp, long fp, boolean callSite, boolean guessedFp) {
        if (count == pcs.length) {
            int n = count * 2;
            pcs = Arrays.copyOf(pcs, n);
            sps = Arrays.copyOf(sps, n);
            kinds = Arrays.copyOf(kinds, n);
            callSites = Arrays.copyOf(callSites, n);
            guessed = Arrays.copyOf(guessed, n);
            signalFrames = Arrays.copyOf(signalFrames, n);
            fps = Arrays.copyOf(fps, n);
            detailA = Arrays.copyOf(detailA, n);
            detailB = Arrays.copyOf(detailB, n);
        }
        pcs[count] = pc;
        sps[count] = sp;
        kinds[count] = kind;
        callSites[count] = callSite;
        guessed[count] = guessedFp;
        fps[count] = fp;
        signalFrames[count] = false;
        detailA[count] = 0;
        detailB[count] = 0;
        count++;
    }

    /** Marks the last frame added as the signal trampoline (its pc was pushed by the kernel, not by a call). */
    void markLastSignalFrame() {
        signalFrames[count - 1] = true;
    }

    /** Whether the frame is a signal trampoline, below which the interrupted code continues. */
    public boolean isSignalFrame(int i) {
        return signalFrames[i];
    }

    /** Whether {@code pc - 1} names the code of this frame: a return address that is not a signal trampoline's. */
    public boolean lookupBeforePc(int i) {
        return callSites[i] && !signalFrames[i];
    }

    /** Says what the last frame added is: a Java or stub frame, with the details its kind defines. */
    void describeLast(byte kind, long a, long b) {
        kinds[count - 1] = kind;
        detailA[count - 1] = a;
        detailB[count - 1] = b;
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

    /** The frame pointer when it was known at this frame, else 0. */
    public long fp(int i) {
        return fps[i];
    }

    /** One of the kind constants of this class. */
    public byte kind(int i) {
        return kinds[i];
    }

    /** Whether the frame is code of some kind (not a marker). */
    public boolean isCode(int i) {
        return kinds[i] != UNKNOWN && kinds[i] != TRUNCATED && kinds[i] != MISSING;
    }

    /** Whether the walk ended without reaching the thread's first frame (a marker of why is its last frame). */
    public boolean broken() {
        return end != End.COMPLETED && end != End.DEPTH_LIMIT;
    }

    /** The sp of the outermost frame walked, or 0 without one. */
    public long outermostSp() {
        for (int i = count - 1; i >= 0; i--) {
            if (isCode(i)) {
                return sps[i];
            }
        }
        return 0;
    }

    /** Whether some frame of the walk is Java code. */
    public boolean hasJavaFrame() {
        for (int i = 0; i < count; i++) {
            if (kinds[i] == JAVA_COMPILED || kinds[i] == JAVA_INTERPRETED) {
                return true;
            }
        }
        return false;
    }

    /** Marks the end as the read of a zero return address. */
    void setEndedAtZeroReturn() {
        zeroReturn = true;
    }

    /**
     * Whether the walk ended on a zero return address: the first frame of a thread whose entry has no unwind data
     * saying so, or a step that read a zero where the frame's return address was not. Walks of threads that start
     * with call frame information (glibc's) end at a frame said to be the first instead.
     */
    public boolean endedAtZeroReturn() {
        return zeroReturn && end == End.COMPLETED;
    }

    /**
     * Counts a walk that ended as though at the thread's first frame as broken: frames further out are known to exist
     * (the thread left Java code above where the walk stopped), so its end was a wrong step, not the stack's end.
     */
    public void endedEarly() {
        if (end == End.COMPLETED) {
            add(UNKNOWN, 0, 0, false, false);
            end = End.UNWIND_FAILED;
        }
    }

    /** Replaces the marker that ended a broken walk with the one for skipped frames, so the walk can go on. */
    void markMissing() {
        if (count > 0 && kinds[count - 1] == UNKNOWN) {
            kinds[count - 1] = MISSING;
        } else {
            add(MISSING, 0, 0, false, false);
        }
    }

    /** The first detail of a Java or stub frame (see the kind constants). */
    public long detailA(int i) {
        return detailA[i];
    }

    /** The second detail of a Java frame (see the kind constants). */
    public long detailB(int i) {
        return detailB[i];
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
