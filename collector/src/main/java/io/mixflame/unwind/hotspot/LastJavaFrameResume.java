package io.mixflame.unwind.hotspot;

import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.WalkedStack;

/**
 * Goes on with a walk that broke in native code (no unwind data, a frame pointer used for data) from where the JVM
 * recorded that the thread left Java, so that a break below Java never loses its callers: the frames skipped are one
 * {@link WalkedStack#MISSING} marker. The anchor is read after the sample was taken, so it is only walked from when
 * the sample's own stack confirms it: the return address that the call out of the anchor's frame pushed, just below
 * the anchor's sp, is code of that frame's blob. Allocates nothing; one per walking thread.
 */
public final class LastJavaFrameResume {
    private final HotSpotVm vm;
    /** sp, fp, pc of the thread's last Java frame. */
    private final long[] anchor = new long[3];

    public LastJavaFrameResume(HotSpotVm vm) {
        this.vm = vm;
    }

    /**
     * Resumes {@code walked}, which {@code walker} just left broken in {@code context}, from thread {@code tid}'s
     * last Java frame.
     *
     * @return whether the walk went on
     */
    public boolean resume(NativeStackWalker walker, UnwindContext context, WalkedStack walked, int tid) {
        if (!walked.broken() || !vm.lastJavaFrame(tid, anchor)) {
            return false;
        }
        long sp = anchor[0];
        long pc = anchor[2];
        long called;
        try {
            called = context.memory().readLong(sp - 8);
        } catch (MemoryReadException e) {
            return false;
        }
        CodeBlobInfo caller = vm.blobAt(called);
        if (caller == null || (pc != 0 && !caller.contains(pc))) {
            return false;
        }
        return walker.resumeAt(context, walked, sp, anchor[1], pc == 0 ? called : pc);
    }
}
