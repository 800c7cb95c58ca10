package io.mixflame.examples.windows;

import io.mixflame.capture.CapturedThread;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.chain.UnwinderChain;
import io.mixflame.unwind.WalkedStack;
import java.util.ArrayList;
import java.util.List;

/**
 * The profiler's production walk of one dumped thread: the thread as a capture would give it (its registers, its
 * stack copied from rsp, its stack limits), walked by the walker and unwinder chain every engine uses, over the
 * dumped process's module map and memory.
 *
 * @param frames the code frames found, innermost first (the end marker left out)
 * @param end    why the walk ended
 * @param marked whether the walk ended in a marker frame (it must, unless it completed)
 */
record DumpedWalk(List<Frame> frames, WalkedStack.End end, boolean marked) {
    /** One frame: its pc (a return address but for the first) and its rsp. */
    record Frame(long pc, long sp) {
    }

    /**
     * Walks a dumped thread.
     *
     * @param stack the stack's bytes from rsp (the dump's, or a corrupted copy)
     * @param high  the stack's upper limit (the TEB's StackBase, or lower to cut the stack short)
     */
    static DumpedWalk of(DumpedProcess process, PeStackDump.DumpedThread t, byte[] stack, long high) {
        CapturedThread capture = new CapturedThread(stack.length);
        capture.clear(1, 0);
        t.registersByDwarfNumber().forEach(capture::setRegister);
        System.arraycopy(stack, 0, capture.stackBuffer(), 0, stack.length);
        capture.setStackLength(stack.length);
        capture.setStackRegion(t.stackLow(), high);

        UnwindContext context = new UnwindContext(new StackMemory(process.memory()), process.modules());
        context.load(capture);
        WalkedStack walked = new WalkedStack();
        NativeStackWalker walker = UnwinderChain.walker(null);
        walker.walk(context, walked);

        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < walked.size() && walked.isCode(i); i++) {
            frames.add(new Frame(walked.pc(i), walked.sp(i)));
        }
        boolean marked = walked.size() > frames.size();
        return new DumpedWalk(List.copyOf(frames), walked.end(), marked);
    }

    /** Walks a dumped thread as it was dumped. */
    static DumpedWalk of(DumpedProcess process, PeStackDump.DumpedThread t) {
        return of(process, t, t.stack(), t.stackHigh());
    }
}
