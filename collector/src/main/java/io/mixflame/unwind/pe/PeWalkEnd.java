package io.mixflame.unwind.pe;

/** Why a walk of a PE stack stopped; every walk ends with exactly one of these, after its last trusted frame. */
public enum PeWalkEnd {
    /** The last frame's return address was 0: the thread's (or fiber's) first frame. The stack is complete. */
    END_OF_STACK,
    /** A return address (or the first pc) lies in no loaded PE image: JIT code, a corrupted slot, or garbage. */
    NO_MODULE,
    /** An unwind step failed its checks: a slot or the caller's rsp outside the stack, misaligned, or no progress. */
    BAD_STACK,
    /** The image's unwind data for the pc could not be decoded. */
    BAD_UNWIND_DATA,
    /** The walk reached its frame limit before the end of the stack. */
    FRAME_CAP;

    /** Whether the walk reached the stack's first frame. */
    public boolean isComplete() {
        return this == END_OF_STACK;
    }
}
