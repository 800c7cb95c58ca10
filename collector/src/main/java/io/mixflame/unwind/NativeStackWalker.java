package io.mixflame.unwind;

import io.mixflame.capture.HostRegisters;
import io.mixflame.process.MemoryMapping;
import io.mixflame.image.ModuleMap;
import java.util.List;

/**
 * Walks one thread's stack from its registers through a chain of {@link Unwinder}s, checking every step the way
 * RtlVirtualUnwind2 checks against stack limits: the caller's sp must lie inside the stack region, above the
 * callee's and 8-byte aligned, and the return address must be in executable memory. A walk that cannot continue
 * ends with an {@link WalkedStack#UNKNOWN} marker rather than with frames made of garbage; a signal frame may move
 * the walk to another stack region (an alternate signal stack), and the bounds follow it.
 */
public final class NativeStackWalker {
    /** The default limit on frames. */
    public static final int DEFAULT_MAX_DEPTH = 2048;

    /** An array, not a list: picking runs for every frame, and iterating a list allocates an iterator each time. */
    private final Unwinder[] chain;
    private final int maxDepth;

    /**
     * @param chain    unwinders in order of preference; the first that can unwind a frame does
     * @param maxDepth frames at most; deeper stacks end with {@link WalkedStack#TRUNCATED}
     */
    public NativeStackWalker(List<Unwinder> chain, int maxDepth) {
        this.chain = chain.toArray(new Unwinder[0]);
        this.maxDepth = maxDepth;
    }

    /**
     * Walks from the registers already set in {@code context} (at least pc and sp).
     *
     * @param context the frame to start from; its registers are consumed
     * @param out     receives the frames
     */
    public void walk(UnwindContext context, WalkedStack out) {
        out.clear();
        walkFrom(context, out, false);
    }

    /**
     * Goes on with a broken walk from a frame found another way, after a {@link WalkedStack#MISSING} marker: the
     * last Java frame the JVM recorded for a thread in native code or in the VM. The frame must lie further out
     * than the walk got (above its outermost sp) and inside the walk's stack; {@code pc} is a return address.
     *
     * @return whether the walk went on (false leaves {@code out} as it was)
     */
    public boolean resumeAt(UnwindContext context, WalkedStack out, long sp, long fp, long pc) {
        StackBounds bounds = context.bounds();
        if (!out.broken() || bounds == null || !bounds.contains(sp) || (sp & 7) != 0
                || Long.compareUnsigned(sp, out.outermostSp()) <= 0 || !context.modules().isExecutable(pc)) {
            return false;
        }
        out.markMissing();
        Registers r = context.registers();
        r.clear();
        r.set(HostRegisters.SP, sp);
        r.set(HostRegisters.PC, pc);
        if (fp != 0) {
            r.set(HostRegisters.FP, fp);
        }
        context.setSignalFrame(false);
        walkFrom(context, out, true);
        return true;
    }

    private void walkFrom(UnwindContext context, WalkedStack out, boolean fromCallSite) {
        Registers r = context.registers();
        ModuleMap modules = context.modules();
        if (context.bounds() == null) {
            StackBounds bounds = boundsAround(context, r.sp());
            if (bounds == null) {
                out.add(WalkedStack.CODE, r.pc(), r.sp(), false, false);
                out.add(WalkedStack.UNKNOWN, 0, 0, false, false);
                out.setEnd(WalkedStack.End.BAD_STACK);
                return;
            }
            context.setBounds(bounds);
        }
        context.setCallSite(fromCallSite);
        context.takeDescribedKind();
        boolean guessed = false;
        while (true) {
            if (out.size() >= maxDepth) {
                out.add(WalkedStack.TRUNCATED, 0, 0, false, false);
                out.setEnd(WalkedStack.End.DEPTH_LIMIT);
                return;
            }
            long pc = r.pc();
            long sp = r.sp();
            out.add(WalkedStack.CODE, pc, sp, r.isKnown(HostRegisters.FP) ? r.fp() : 0, context.callSite(), guessed);
            context.nextFrame();
            Unwinder unwinder = pick(context);
            if (unwinder == null) {
                fail(out, WalkedStack.End.NO_UNWINDER);
                return;
            }
            UnwindStatus status = unwinder.tryUnwind(context);
            byte described = context.takeDescribedKind();
            if (described != WalkedStack.CODE) {
                out.describeLast(described, context.describedA(), context.describedB());
            }
            if (status == UnwindStatus.COMPLETED) {
                out.setEnd(WalkedStack.End.COMPLETED);
                if (r.pc() == 0) {
                    // The unwinder read a zero return address (a frame-pointer chain's end), not a rule saying so.
                    out.setEndedAtZeroReturn();
                }
                return;
            }
            if (status == UnwindStatus.FAILED) {
                fail(out, WalkedStack.End.UNWIND_FAILED);
                return;
            }
            guessed = context.guessedFramePointer();
            long newSp = r.sp();
            long newPc = r.pc();
            if (newPc == 0) {
                out.setEnd(WalkedStack.End.COMPLETED);
                out.setEndedAtZeroReturn();
                return;
            }
            if (context.signalFrame()) {
                out.markLastSignalFrame();
                // The interrupted code may run on another stack than the handler (sigaltstack).
                StackBounds next = context.bounds().contains(newSp) ? context.bounds() : boundsAround(context, newSp);
                if (next == null) {
                    fail(out, WalkedStack.End.BAD_STACK);
                    return;
                }
                context.setBounds(next);
            } else if (Long.compareUnsigned(newSp, sp) <= 0) {
                fail(out, WalkedStack.End.BAD_STACK);
                return;
            }
            if (!context.bounds().contains(newSp) || (newSp & 7) != 0) {
                fail(out, WalkedStack.End.BAD_STACK);
                return;
            }
            if (!modules.isExecutable(newPc)) {
                fail(out, WalkedStack.End.BAD_PC);
                return;
            }
            context.setCallSite(!context.signalFrame());
        }
    }

    private Unwinder pick(UnwindContext context) {
        for (int i = 0; i < chain.length; i++) {
            if (chain[i].canUnwindFrom(context)) {
                return chain[i];
            }
        }
        return null;
    }

    private static void fail(WalkedStack out, WalkedStack.End end) {
        out.add(WalkedStack.UNKNOWN, 0, 0, false, false);
        out.setEnd(end);
    }

    /** The stack region holding an sp: its readable and writable mapping. */
    private static StackBounds boundsAround(UnwindContext context, long sp) {
        MemoryMapping m = context.modules().stackRegionContaining(sp);
        return m == null ? null : context.region(m.start(), m.end());
    }
}
