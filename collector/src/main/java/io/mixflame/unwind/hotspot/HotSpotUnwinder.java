package io.mixflame.unwind.hotspot;

import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import io.mixflame.unwind.Unwinder;
import io.mixflame.unwind.WalkedStack;

/**
 * Unwinds frames of code in HotSpot's code cache: it tells an interpreted frame, an entry frame (the call stub, back
 * into the C++ that called Java), a compiled frame and a stub apart by the code cache's blob at the pc, describes
 * each as such so that the namer can turn it into Java methods (inlined ones included), and has the architecture's
 * {@link HotSpotFrameRules} take the step.
 */
public final class HotSpotUnwinder implements Unwinder {
    private final HotSpotVm vm;
    /** The frame layouts of this machine's architecture. */
    private final HotSpotFrameRules frames;

    /** @param frames the frame layouts of the architecture {@code vm} runs on, chosen where the chain is built */
    public HotSpotUnwinder(HotSpotVm vm, HotSpotFrameRules frames) {
        this.vm = vm;
        this.frames = frames;
    }

    @Override
    public boolean canUnwindFrom(UnwindContext context) {
        long pc = context.lookupPc();
        CodeBlobInfo blob = vm.inCodeCache(pc) ? vm.blobAt(pc) : null;
        // Handed to the step that follows: the code cache is searched once per frame.
        context.setClaim(blob);
        return blob != null;
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext context) {
        CodeBlobInfo blob = context.claim() instanceof CodeBlobInfo claimed ? claimed : vm.blobAt(context.lookupPc());
        if (blob == null) {
            return UnwindStatus.FAILED;
        }
        try {
            if (vm.isCallStubReturn(context.registers().pc())) {
                context.describeFrame(WalkedStack.JVM_STUB, blob.start(), 0);
                return frames.byFramePointer(context);
            }
            return switch (blob.kind()) {
                case INTERPRETER -> frames.interpreted(context);
                case NMETHOD, NATIVE_WRAPPER, STUB -> unwindBlob(context, blob);
            };
        } catch (MemoryReadException e) {
            return UnwindStatus.FAILED;
        }
    }

    private UnwindStatus unwindBlob(UnwindContext context, CodeBlobInfo blob) throws MemoryReadException {
        long pc = context.registers().pc();
        if (blob.isJava()) {
            long realPc = pc;
            if (pc == blob.deoptHandler() || pc == blob.deoptMhHandler()) {
                // A frame being deoptimized returns into the handler; the pc it really stands at was saved.
                realPc = context.memory().readLong(context.registers().sp() + blob.origPcOffset());
            }
            context.describeFrame(WalkedStack.JAVA_COMPILED, blob.start(), realPc);
        } else {
            context.describeFrame(WalkedStack.JVM_STUB, blob.start(), 0);
        }
        if (blob.isJava() || blob.frameSizeWords() > 0) {
            return frames.sized(context, blob);
        }
        return frames.stub(context, vm.stubEntry(blob, context.lookupPc()));
    }
}
