package io.mixflame.unwind.hotspot;

import io.mixflame.cache.MonotonicClock;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaMethod;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import io.mixflame.unwind.Unwinder;
import io.mixflame.unwind.WalkedStack;

/**
 * Unwinds frames of code in HotSpot's code cache by the JVM's own rules (x86-64): interpreted frames through their
 * frame pointer (the Method* and bcp in their slots), entry frames (the call stub) back into the C++ that called
 * Java, and compiled code and stubs by {@link BlobFrameStep}: by frame size (C2 code uses rbp as an ordinary
 * register), through the frame pointer of stubs that keep one, and by the code bytes in prologues and epilogues.
 * Each frame is described as interpreted, compiled or stub, so that the namer can turn it into Java methods,
 * inlined ones included.
 */
public final class HotSpotUnwinder implements Unwinder {
    /** Interpreter frame slots, in words from rbp (frame_x86.hpp; not exported by HotSpot). */
    private static final int METHOD_SLOT = -3;
    private static final int BCP_SLOT = -8;
    private static final int SENDER_SP_SLOT = -1;
    private static final long MAX_FRAME_BYTES = 1 << 20;
    private static final int SEARCH_BYTES = 64 * 1024;

    private final HotSpotVm vm;
    private final BlobFrameStep frames = new BlobFrameStep(MonotonicClock.NANOS);

    public HotSpotUnwinder(HotSpotVm vm) {
        this.vm = vm;
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
                case INTERPRETER -> unwindInterpreted(context);
                case NMETHOD, NATIVE_WRAPPER, STUB -> unwindBlob(context, blob);
            };
        } catch (MemoryReadException e) {
            return UnwindStatus.FAILED;
        }
    }

    private UnwindStatus unwindInterpreted(UnwindContext context) throws MemoryReadException {
        Registers r = context.registers();
        StackMemory m = context.memory();
        long fp = r.isKnown(Registers.RBP) ? r.fp() : 0;
        if (!plausibleInterpreterFrame(context, fp)) {
            // A capture without rbp (a thread blocked in the kernel): the frame is found by its Method* slot.
            fp = searchInterpreterFrame(context);
            if (fp == 0) {
                return UnwindStatus.FAILED;
            }
        }
        long method = m.readLong(fp + 8L * METHOD_SLOT);
        long bcp = m.readLong(fp + 8L * BCP_SLOT);
        context.describeFrame(WalkedStack.JAVA_INTERPRETED, method, bcp);
        long returnAddress = m.readLong(fp + 8);
        long senderSp = m.readLong(fp + 8L * SENDER_SP_SLOT);
        long callerFp = m.readLong(fp);
        r.set(Registers.RIP, returnAddress);
        r.set(Registers.RSP, senderSp);
        r.set(Registers.RBP, callerFp);
        context.setSignalFrame(false);
        return UnwindStatus.UNWOUND;
    }

    private boolean plausibleInterpreterFrame(UnwindContext context, long fp) {
        long sp = context.registers().sp();
        if (fp == 0 || (fp & 7) != 0 || fp < sp || fp - sp > MAX_FRAME_BYTES || !context.bounds().contains(fp)) {
            return false;
        }
        try {
            // Only a method that names itself: the frame search below must not take a dead one's slot for a frame.
            JavaMethod m = vm.method(context.memory().readLong(fp + 8L * METHOD_SLOT));
            return m != null && !m.isUnloaded();
        } catch (MemoryReadException e) {
            return false;
        }
    }

    private long searchInterpreterFrame(UnwindContext context) {
        long sp = context.registers().sp();
        long high = Math.min(sp + SEARCH_BYTES, context.bounds().high() - 16);
        for (long fp = (sp + 7) & ~7L; fp < high; fp += 8) {
            try {
                long returnAddress = context.memory().readLong(fp + 8);
                if (context.modules().isExecutable(returnAddress) && plausibleInterpreterFrame(context, fp)) {
                    return fp;
                }
            } catch (MemoryReadException e) {
                return 0;
            }
        }
        return 0;
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
