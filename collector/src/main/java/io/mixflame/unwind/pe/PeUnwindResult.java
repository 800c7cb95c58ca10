package io.mixflame.unwind.pe;

import io.mixflame.unwind.UnwindStatus;

/**
 * The outcome of one x64 unwind step.
 *
 * @param status           {@link UnwindStatus#UNWOUND} (registers now describe the caller),
 *                         {@link UnwindStatus#COMPLETED} (the return address is 0: the stack's first frame) or
 *                         {@link UnwindStatus#FAILED}
 * @param failure          why it failed, {@code null} otherwise
 * @param establisherFrame the frame's establisher frame (rsp or frame register based), meaningful unless failed
 * @param skippedXmmSaves  XMM register saves the step passed over without reading (a walk needs no XMM values)
 */
public record PeUnwindResult(UnwindStatus status, String failure, long establisherFrame, int skippedXmmSaves) {
    static PeUnwindResult failed(String reason) {
        return new PeUnwindResult(UnwindStatus.FAILED, reason, 0, 0);
    }

    public boolean isUnwound() {
        return status == UnwindStatus.UNWOUND;
    }
}
