package io.mixflame.unwind.hotspot.x64;

import io.mixflame.cache.MonotonicClock;
import io.mixflame.capture.x64.X64Registers;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaMethod;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import io.mixflame.unwind.WalkedStack;
import io.mixflame.unwind.hotspot.HotSpotFrameRules;

/**
 * HotSpot's frames on x86-64: interpreted frames through their frame pointer (the Method* and bcp in their slots,
 * {@code frame_x86.hpp}), compiled code and stubs by {@link BlobFrameStep} (by frame size, as C2 code uses rbp as an
 * ordinary register; through the frame pointer of stubs that keep one; by the code bytes in prologues and
 * epilogues).
 */
public final class X64FrameRules implements HotSpotFrameRules {
    /** Interpreter frame slots, in words from rbp (frame_x86.hpp; not exported by HotSpot). */
    private static final int METHOD_SLOT = -3;
    private static final int BCP_SLOT = -8;
    private static final int SENDER_SP_SLOT = -1;
    private static final long MAX_FRAME_BYTES = 1 << 20;
    private static final int SEARCH_BYTES = 64 * 1024;

    private final HotSpotVm vm;
    private final BlobFrameStep frames = new BlobFrameStep(MonotonicClock.NANOS);

    /** The rules for the JVM {@code vm}, whose methods tell an interpreted frame's Method* slot from garbage. */
    public X64FrameRules(HotSpotVm vm) {
        this.vm = vm;
    }

    @Override
    public UnwindStatus interpreted(UnwindContext context) throws MemoryReadException {
        Registers r = context.registers();
        StackMemory m = context.memory();
        long fp = r.isKnown(X64Registers.RBP) ? r.fp() : 0;
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
        r.set(X64Registers.RIP, returnAddress);
        r.set(X64Registers.RSP, senderSp);
        r.set(X64Registers.RBP, callerFp);
        context.setSignalFrame(false);
        return UnwindStatus.UNWOUND;
    }

    @Override
    public UnwindStatus sized(UnwindContext context, CodeBlobInfo blob) throws MemoryReadException {
        return frames.sized(context, blob);
    }

    @Override
    public UnwindStatus stub(UnwindContext context, long entry) throws MemoryReadException {
        return frames.stub(context, entry);
    }

    @Override
    public UnwindStatus byFramePointer(UnwindContext context) throws MemoryReadException {
        return frames.byFramePointer(context);
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
}
