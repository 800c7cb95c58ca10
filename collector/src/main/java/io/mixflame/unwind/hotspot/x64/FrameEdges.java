package io.mixflame.unwind.hotspot.x64;

import static io.mixflame.unwind.hotspot.x64.CallerSlots.FRAME_BUILT;
import static io.mixflame.unwind.hotspot.x64.CallerSlots.RBP_UNCHANGED;
import static io.mixflame.unwind.hotspot.x64.CallerSlots.UNRECOGNIZED;

/**
 * Tells how much of a frame is on the stack at a pc where it is being built or taken down, by decoding forward from
 * the pc over the few instructions HotSpot emits there: what is still to run says what has run.
 *
 * <p>A compiled method's prologue (from its verified entry until its frame is complete) is either stack bangs,
 * {@code push rbp}, maybe {@code mov rbp, rsp}, then {@code sub rsp, n}; or, without a bang,
 * {@code sub rsp, n}, {@code mov [rsp + n - 8], rbp}, maybe {@code mov rbp, rsp; add rbp, n - 8}; an entry barrier
 * may follow (a compare, then a branch or call), still before the frame counts as complete. Its epilogue is maybe {@code vzeroupper}, {@code add rsp, n} (or {@code leave}), {@code pop rbp}, a
 * safepoint poll, {@code ret}. A stub that keeps a frame pointer starts with {@code push rbp; mov rbp, rsp} and
 * ends with {@code leave} or {@code pop rbp} before its {@code ret}.
 */
final class FrameEdges {
    /** More than any prologue or epilogue holds: nops, bangs, the frame's three, a barrier. */
    private static final int MAX_INSTRUCTIONS = 16;
    /** What an epilogue does first from a pc on. */
    private static final int NO_CHANGE = 0;
    private static final int FRAME_REMOVAL = 1;
    private static final int RBP_POP = 2;

    private FrameEdges() {
    }

    /** At a pc of a prologue, from the verified entry up to where the frame is complete. */
    static int prologue(CodeWindow code, CallerSlots out) {
        int at = 0;
        for (int n = 0; n < MAX_INSTRUCTIONS; n++) {
            int skip = Math.max(FrameInstructions.nop(code, at), FrameInstructions.stackBang(code, at));
            if (skip > 0) {
                at += skip;
                continue;
            }
            if (FrameInstructions.pushRbp(code, at) > 0) {
                return out.partial(0, RBP_UNCHANGED);
            }
            int length = FrameInstructions.movRbpRsp(code, at);
            if (length > 0) {
                // With the frame allocated first, rbp is set from rsp and moved up to the saved rbp's slot.
                int next = at + length;
                if (FrameInstructions.arithmetic(code, next, FrameInstructions.ADD_RBP) > 0) {
                    int up = FrameInstructions.immediate(code, next);
                    return out.partial(up + 8, up);
                }
                return out.partial(8, 0);
            }
            length = FrameInstructions.arithmetic(code, at, FrameInstructions.SUB_RSP);
            if (length > 0) {
                // Allocated before rbp is saved into it, or after rbp was pushed.
                return FrameInstructions.storeRbp(code, at + length) > 0 ? out.partial(0, RBP_UNCHANGED)
                        : out.partial(8, 0);
            }
            if (FrameInstructions.storeRbp(code, at) > 0) {
                return out.partial(FrameInstructions.storeRbpDisplacement(code, at) + 8, RBP_UNCHANGED);
            }
            if (FrameInstructions.arithmetic(code, at, FrameInstructions.ADD_RBP) > 0) {
                int up = FrameInstructions.immediate(code, at);
                return out.partial(up + 8, up);
            }
            boolean barrier = FrameInstructions.entryBarrier(code, at) > 0
                    || FrameInstructions.entryBarrierBranch(code, at) > 0;
            return barrier ? FRAME_BUILT : UNRECOGNIZED;
        }
        return UNRECOGNIZED;
    }

    /**
     * At a pc where the frame was complete: {@link CallerSlots#FRAME_BUILT} unless the code from the pc is the
     * rest of an epilogue that has taken part of the frame down already.
     */
    static int epilogue(CodeWindow code, CallerSlots out) {
        int at = 0;
        // The first instruction from the pc that changes the frame says what is left of it.
        int firstChange = NO_CHANGE;
        for (int n = 0; n < MAX_INSTRUCTIONS; n++) {
            if (FrameInstructions.ret(code, at) > 0) {
                return switch (firstChange) {
                    case NO_CHANGE -> out.partial(0, RBP_UNCHANGED);
                    case RBP_POP -> out.partial(8, 0);
                    default -> FRAME_BUILT;
                };
            }
            int length = FrameInstructions.vzeroupper(code, at) + FrameInstructions.pollPart(code, at);
            if (length == 0) {
                length = FrameInstructions.arithmetic(code, at, FrameInstructions.ADD_RSP);
                length += FrameInstructions.leave(code, at);
                if (length > 0 && firstChange == NO_CHANGE) {
                    firstChange = FRAME_REMOVAL;
                }
            }
            if (length == 0) {
                length = FrameInstructions.popRbp(code, at);
                if (length > 0 && firstChange == NO_CHANGE) {
                    firstChange = RBP_POP;
                }
            }
            if (length == 0) {
                // Any other instruction: the body, where the whole frame is there.
                return FRAME_BUILT;
            }
            at += length;
        }
        return FRAME_BUILT;
    }

    /**
     * At a pc of a stub without a frame size, whose code starts at {@code entry} (described by {@code entryCode}):
     * a stub that does not start by pushing rbp has nothing on the stack above its return address; one that does
     * has pushed it from its second instruction on and set up its frame pointer from its third, until its epilogue.
     */
    static int stub(CodeWindow entryCode, long pc, CodeWindow code, CallerSlots out) {
        if (!FrameInstructions.buildsFramePointer(entryCode, 0)) {
            return out.partial(0, RBP_UNCHANGED);
        }
        long offset = pc - entryCode.address();
        if (offset == 0) {
            return out.partial(0, RBP_UNCHANGED);
        }
        if (offset == 1) {
            return out.partial(8, 0);
        }
        return epilogue(code, out);
    }
}
