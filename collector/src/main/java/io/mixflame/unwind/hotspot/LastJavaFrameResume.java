package io.mixflame.unwind.hotspot;

import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.WalkedStack;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

/**
 * Goes on with a walk that broke in native code (no unwind data, a frame pointer used for data) from the frame where
 * the thread left Java, so that a break below Java never loses its callers: the frames skipped are one
 * {@link WalkedStack#MISSING} marker. That frame is found two ways:
 * <ul>
 * <li>from the JVM's record of it (the frame anchor), read after the sample was taken, and so only walked from when
 * the sample's own stack confirms it: the copy taken with the sample holds, just below the anchor's sp, the very
 * return address that the call out of the anchor's frame pushed (the word there now), and it is code of that frame's
 * blob. A slot beyond the copy confirms nothing: read from the process, it shows the stack as it is now, which always
 * agrees with an anchor read now, and the walk would go on through the frames the thread is in at the walk rather
 * than those it was in at the sample;</li>
 * <li>where that record has moved on (a thread making many short native calls is in another one by the time its
 * sample is walked), from the return address into a native wrapper found in the sample's stack above the break
 * ({@link NativeCallReturnSearch}).</li>
 * </ul>
 * A walk that ended on a zero return address without meeting Java code, below a confirmed anchor or below a native
 * wrapper's return address, is broken too: some step read a zero where the return address was not. Allocates nothing; one per walking thread.
 */
public final class LastJavaFrameResume {
    /** Where a thread last left Java code, as {@link HotSpotVm#lastJavaFrame} answers. */
    interface Anchors {
        /** Fills {@code out} with thread {@code tid}'s last Java frame: sp, fp, pc; false when there is none. */
        boolean read(int tid, long[] out);
    }

    private final LongFunction<CodeBlobInfo> blobAt;
    private final Anchors anchors;
    private final NativeCallReturnSearch search;
    /** sp, fp, pc of the thread's last Java frame. */
    private final long[] anchor = new long[3];
    /** The return address below the anchor's sp, set by {@link #confirmed}. */
    private long returnAddress;

    public LastJavaFrameResume(HotSpotVm vm) {
        this(vm.codeQueries(), vm.codeQueries(), new VmAnchors(vm));
    }

    /** The threads' last Java frames, read from the JVM (a class: a method reference is spun at start-up). */
    private static final class VmAnchors implements Anchors {
        private final HotSpotVm vm;

        VmAnchors(HotSpotVm vm) {
            this.vm = vm;
        }

        @Override
        public boolean read(int tid, long[] out) {
            return vm.lastJavaFrame(tid, out);
        }
    }

    /**
     * @param inCodeCache whether an address is in the JVM's code cache (cheap: no read)
     * @param blobAt      the code blob holding an address, or null
     * @param anchors     the threads' last Java frames, read from the JVM's memory now
     */
    LastJavaFrameResume(LongPredicate inCodeCache, LongFunction<CodeBlobInfo> blobAt, Anchors anchors) {
        this.blobAt = blobAt;
        this.anchors = anchors;
        this.search = new NativeCallReturnSearch(inCodeCache, blobAt);
    }

    /**
     * Resumes {@code walked}, which {@code walker} just left in {@code context}, from thread {@code tid}'s last Java
     * frame, where the walk broke (or ended early) below it.
     *
     * @return whether the walk went on
     */
    public boolean resume(NativeStackWalker walker, UnwindContext context, WalkedStack walked, int tid) {
        // Most walks end at the thread's first frame: nothing to resume, and the anchor (reads of the JVM's memory) is
        // not asked for. An end on a zero return address in a walk that met no Java frame may be a wrong step.
        if (!walked.broken() && (!walked.endedAtZeroReturn() || walked.hasJavaFrame())) {
            return false;
        }
        if (!anchors.read(tid, anchor)) {
            // Not a Java thread, or one never seen outside Java code: nothing says there are Java frames further out.
            return false;
        }
        long outermost = walked.outermostSp();
        if (confirmed(context) && Long.compareUnsigned(anchor[0], outermost) > 0) {
            walked.endedEarly();
            long pc = anchor[2];
            return walker.resumeAt(context, walked, anchor[0], anchor[1], pc != 0 ? pc : returnAddress);
        }
        long slot = context.bounds() == null ? 0 : search.find(context.memory(), context.bounds(), outermost);
        if (slot == 0) {
            return false;
        }
        long wrapperReturn;
        try {
            wrapperReturn = context.memory().readLong(slot);
        } catch (MemoryReadException e) {
            return false;
        }
        walked.endedEarly();
        return walker.resumeAt(context, walked, slot + 8, 0, wrapperReturn);
    }

    /**
     * Whether the sample's copy holds, just below the anchor's sp, the return address of the anchor's call, into the
     * anchor's frame's code.
     */
    private boolean confirmed(UnwindContext context) {
        long sp = anchor[0];
        long pc = anchor[2];
        StackMemory memory = context.memory();
        if (!memory.copyHolds(sp - 8, 8)) {
            return false;
        }
        try {
            returnAddress = memory.readLong(sp - 8);
            // The blob alone is too coarse: the interpreter is one blob, and interpreted frames all over a stack hold
            // return addresses into it. The slot as it is now holds the return address of the very call the anchor
            // records (until something overwrites it once that call is over); a sample taken inside that call, or
            // inside one made from the same place at the same depth (whose frames are alike), has the same word
            // there, and a word some other frame left there differs.
            if (memory.process().readLong(sp - 8) != returnAddress) {
                return false;
            }
        } catch (MemoryReadException e) {
            return false;
        }
        CodeBlobInfo caller = blobAt.apply(returnAddress);
        return caller != null && (pc == 0 || caller.contains(pc));
    }
}
