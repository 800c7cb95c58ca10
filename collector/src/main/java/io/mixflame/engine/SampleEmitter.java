package io.mixflame.engine;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.labels.SampleLabeler;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.profile.Frame;
import io.mixflame.profile.SampleSink;
import java.io.IOException;

/**
 * The step every engine that walks its own captures ends each sample with (the perf and timer engine, the wall
 * clock, the suspend and ptrace engine): its stack built (a larger copy asked for when a walk broke above the copy it
 * had, where copies grow), labelled, the thread roots named since renamed in the sink, and the sample added, standing
 * for its count of intervals. Each step leaves its frames in {@link #frames()}. One per thread that adds samples; not
 * thread-safe.
 */
public final class SampleEmitter {
    private final SampleStackBuilder stacks;
    private final SampleSink target;
    private final boolean threadRoots;
    private final long intervalNanos;
    private final StackCopyGrowth growth;
    /** Null when labels are not recorded. */
    private final SampleLabeler labels;
    private Frame[] frames;

    /**
     * @param threadRoots   whether stacks start at their thread's frame
     * @param intervalNanos what one interval of a sample's count weighs
     * @param growth        where walks that need a larger copy ask for it, or null where copies do not grow
     * @param labels        the labels of the process's threads, or null
     */
    public SampleEmitter(SampleStackBuilder stacks, SampleSink target, boolean threadRoots, long intervalNanos,
                         StackCopyGrowth growth, SampleLabeler labels) {
        this.stacks = stacks;
        this.target = target;
        this.threadRoots = threadRoots;
        this.intervalNanos = intervalNanos;
        this.growth = growth;
        this.labels = labels;
    }

    /** Builds the stack of a captured sample; its depth. */
    public int build(CapturedThread s) {
        int depth = stacks.build(s, threadRoots);
        if (growth != null && stacks.copyTooShort()) {
            growth.request((int) s.tid(), s.stackLength());
        }
        frames = stacks.frames();
        return depth;
    }

    /** Builds the stack of a thread blocked in the kernel, with {@code leaf} last; its depth, or -1 when none. */
    public int buildBlocked(int tid, BlockedThreadCapture blocked, Frame leaf) throws IOException {
        int depth = stacks.buildBlocked(tid, blocked, threadRoots, leaf);
        frames = stacks.frames();
        return depth;
    }

    /** Labels {@code stack[0..depth)} with {@code set}, looked up when the sample was taken; the new depth. */
    public int label(int set, Frame[] stack, int depth) {
        if (labels == null) {
            frames = stack;
            return depth;
        }
        depth = labels.label(set, stack, depth, threadRoots);
        frames = labels.frames();
        return depth;
    }

    /** Labels {@code stack[0..depth)} with the set thread {@code tid} has at {@code nanoTime}; the new depth. */
    public int label(int tid, long nanoTime, Frame[] stack, int depth) {
        if (labels == null) {
            frames = stack;
            return depth;
        }
        depth = labels.label(tid, nanoTime, stack, depth, threadRoots);
        frames = labels.frames();
        return depth;
    }

    /** The frames of the last build or label. */
    public Frame[] frames() {
        return frames;
    }

    /** The root frame of thread {@code tid}, named as it is now. */
    public Frame threadFrame(int tid) {
        return stacks.threadFrame(tid);
    }

    /** Whether stacks start at their thread's frame. */
    public boolean threadRoots() {
        return threadRoots;
    }

    /** Adds {@code stack[0..depth)}, standing for {@code count} intervals, taken at {@code epochNanos}. */
    public void add(Frame[] stack, int depth, long count, long epochNanos) {
        stacks.renameRoots(target);
        target.add(stack, depth, count, count * intervalNanos, epochNanos);
    }
}
