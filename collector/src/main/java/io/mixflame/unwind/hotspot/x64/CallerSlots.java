package io.mixflame.unwind.hotspot.x64;

/**
 * What {@link FrameEdges} found at a pc: whether the frame there is whole, and where it is not, how far from sp the
 * caller's return address and saved rbp are. Reused from frame to frame.
 */
final class CallerSlots {
    /** The frame is whole: its size, or for a stub its frame pointer, finds the caller. */
    static final int FRAME_BUILT = 0;
    /** Part of the frame is built or left: see {@link #returnAt} and {@link #savedRbpAt}. */
    static final int PARTIAL = 1;
    /** The code at the pc is none of what can stand there: nothing can be told of the frame. */
    static final int UNRECOGNIZED = 2;
    /** {@link #savedRbpAt} when rbp still holds the caller's value. */
    static final int RBP_UNCHANGED = -1;

    private int returnAt;
    private int savedRbpAt;

    /** Records a partial frame; returns {@link #PARTIAL}. */
    int partial(int returnAddressAt, int rbpAt) {
        this.returnAt = returnAddressAt;
        this.savedRbpAt = rbpAt;
        return PARTIAL;
    }

    /** Bytes from sp to the caller's return address. */
    int returnAt() {
        return returnAt;
    }

    /** Bytes from sp to the caller's saved rbp, or {@link #RBP_UNCHANGED}. */
    int savedRbpAt() {
        return savedRbpAt;
    }
}
