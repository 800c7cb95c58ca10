package io.mixflame.unwind.hotspot.x64;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.unwind.CodeLineCache;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import java.util.function.LongSupplier;

/**
 * One step out of a frame of compiled code or of a stub, by the rule that holds at its pc, decided from the blob's
 * offsets and the code bytes (see {@link FrameEdges}): a frame of known size through its size once complete, a
 * stub that keeps a frame pointer through rbp, anything partly built or taken down through the slots its remaining
 * instructions leave. Every caller found is checked before it is taken: its sp inside the stack and above the
 * frame's, its pc in executable code; a frame pointer must point into the stack at or above sp. Otherwise the step
 * fails. Allocates nothing.
 */
final class BlobFrameStep {
    private final CodeLineCache cache;
    private final CodeWindow code = new CodeWindow();
    private final CodeWindow entryCode = new CodeWindow();
    private final CallerSlots slots = new CallerSlots();

    BlobFrameStep(LongSupplier clock) {
        // The JIT frees and fills blocks of its code cache: lines are read again after a second, or when the code
        // cache's index no longer confirms the blob they were read for (its CodeBlobInfo is then another object).
        this.cache = new CodeLineCache(1024, 1_000_000_000L, clock);
    }

    /**
     * A frame of code with a frame size (an nmethod, a native wrapper, a runtime stub). In the innermost frame
     * the pc may stand before the verified entry (nothing pushed), in the prologue or in an epilogue.
     */
    UnwindStatus sized(UnwindContext context, CodeBlobInfo blob) throws MemoryReadException {
        long pc = context.registers().pc();
        if (context.callSite()) {
            return byFrameSize(context, blob);
        }
        int state;
        if (pc < blob.verifiedEntry()) {
            state = slots.partial(0, CallerSlots.RBP_UNCHANGED);
        } else if (!blob.frameComplete(pc)) {
            state = FrameEdges.prologue(code.load(cache, context.memory().process(), pc, blob), slots);
        } else {
            state = FrameEdges.epilogue(code.load(cache, context.memory().process(), pc, blob), slots);
        }
        return switch (state) {
            case CallerSlots.FRAME_BUILT -> byFrameSize(context, blob);
            case CallerSlots.PARTIAL -> bySlots(context);
            default -> UnwindStatus.FAILED;
        };
    }

    /**
     * A frame of a stub without a frame size whose code starts at {@code entry} (0 when not known): a stub that
     * pushes rbp at its entry is unwound through its frame pointer once that is set up, any other through the
     * return address at sp. Above the innermost frame only a frame pointer can be trusted.
     */
    UnwindStatus stub(UnwindContext context, long entry) throws MemoryReadException {
        if (entry == 0) {
            return UnwindStatus.FAILED;
        }
        load(entryCode, context, entry);
        if (context.callSite()) {
            return FrameInstructions.buildsFramePointer(entryCode, 0) ? byFramePointer(context)
                    : UnwindStatus.FAILED;
        }
        long pc = context.registers().pc();
        return switch (FrameEdges.stub(entryCode, pc, load(code, context, pc), slots)) {
            case CallerSlots.FRAME_BUILT -> byFramePointer(context);
            case CallerSlots.PARTIAL -> bySlots(context);
            default -> UnwindStatus.FAILED;
        };
    }

    /** The caller's pc at [rbp + 8], its sp at rbp + 16, its rbp at [rbp]. */
    UnwindStatus byFramePointer(UnwindContext context) throws MemoryReadException {
        Registers r = context.registers();
        if (!r.isKnown(X64Registers.RBP)) {
            return UnwindStatus.FAILED;
        }
        long fp = r.fp();
        if (Long.compareUnsigned(fp, r.sp()) < 0 || (fp & 7) != 0 || !context.bounds().contains(fp)) {
            return UnwindStatus.FAILED;
        }
        return take(context, fp + 16, context.memory().readLong(fp + 8), context.memory().readLong(fp), true);
    }

    private UnwindStatus byFrameSize(UnwindContext context, CodeBlobInfo blob) throws MemoryReadException {
        if (blob.frameSizeWords() <= 0) {
            return UnwindStatus.FAILED;
        }
        long senderSp = context.registers().sp() + 8L * blob.frameSizeWords();
        return take(context, senderSp, context.memory().readLong(senderSp - 8),
                context.memory().readLong(senderSp - 16), true);
    }

    private UnwindStatus bySlots(UnwindContext context) throws MemoryReadException {
        long sp = context.registers().sp();
        long returnAddress = context.memory().readLong(sp + slots.returnAt());
        boolean rbpSaved = slots.savedRbpAt() != CallerSlots.RBP_UNCHANGED;
        long rbp = rbpSaved ? context.memory().readLong(sp + slots.savedRbpAt()) : 0;
        return take(context, sp + slots.returnAt() + 8, returnAddress, rbp, rbpSaved);
    }

    private static UnwindStatus take(UnwindContext context, long callerSp, long callerPc, long callerRbp,
                                     boolean setRbp) {
        Registers r = context.registers();
        if (Long.compareUnsigned(callerSp, r.sp()) <= 0 || (callerSp & 7) != 0
                || !context.bounds().contains(callerSp - 8) || !context.modules().isExecutable(callerPc)) {
            return UnwindStatus.FAILED;
        }
        r.set(X64Registers.RIP, callerPc);
        r.set(X64Registers.RSP, callerSp);
        if (setRbp) {
            r.set(X64Registers.RBP, callerRbp);
        }
        context.setSignalFrame(false);
        return UnwindStatus.UNWOUND;
    }

    private CodeWindow load(CodeWindow window, UnwindContext context, long address) {
        return window.load(cache, context.memory().process(), address);
    }
}
