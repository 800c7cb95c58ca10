package io.mixflame.engine.wall;

import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.engine.SampleEmitter;
import io.mixflame.profile.Frame;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;

/**
 * A tick's visit of one thread: its {@code /proc} syscall line read, and its sample taken, standing for the intervals
 * it is owed. A running thread gets the stack of its latest cpu sample, or just {@code [running]} when it has none
 * fresh; a blocked one is walked from its syscall line without stopping it, or counted again under the stack kept when
 * the line is the same and it has not run since. The thread's state is the stack's leaf frame.
 */
final class ThreadVisit {
    private final SampleEmitter emitter;
    private final BlockedThreadCapture blocked;
    private final RunningSamples running;
    private final RunEvidence evidence;
    private final EnumSet<ThreadState> states;
    private final WallCosts costs;
    /** Where a running thread's kept stack is labelled. */
    private Frame[] scratch = new Frame[64];

    /** @param states the states whose samples are kept */
    ThreadVisit(SampleEmitter emitter, BlockedThreadCapture blocked, RunningSamples running, RunEvidence evidence,
                EnumSet<ThreadState> states, WallCosts costs) {
        this.emitter = emitter;
        this.blocked = blocked;
        this.running = running;
        this.evidence = evidence;
        this.states = states;
        this.costs = costs;
    }

    /** Visits {@code t} at {@code now} ({@link System#nanoTime()}), its sample stamped {@code at} (epoch). */
    void visit(WallThread t, long now, long at) {
        long intervals = t.owed;
        t.owed = 0;
        t.trackedRun = 0;
        t.trackedBlocked = 0;
        t.trackedFrom = now;
        costs.waited(intervals);
        boolean ranMeanwhile = evidence.ranSinceVisit(t);
        t.flush(emitter);
        String line;
        try {
            line = t.reader.read();
        } catch (IOException ex) {
            return;
        }
        if (SyscallLineReader.isRunning(line)) {
            if (states.contains(ThreadState.RUNNING)) {
                addRunning(t, now, at, intervals);
            }
            return;
        }
        ThreadState state = ThreadState.ofSyscall(SyscallLineReader.syscall(line));
        if (!states.contains(state)) {
            return;
        }
        t.blockedSeenAt = now;
        // The same line after the thread ran is the same call site reached again, perhaps from other callers
        // (two handlers that both sleep): only without the perf page's evidence does the line alone decide.
        if (!ranMeanwhile && line.equals(t.lastLine) && t.lastFrames != null) {
            costs.reused();
            t.addKept(emitter, intervals, at);
            return;
        }
        walkBlocked(t, line, state, now, at, intervals);
    }

    /** A running thread: its latest cpu sample's stack, when fresh, under {@code [running]}. */
    private void addRunning(WallThread t, long now, long at, long intervals) {
        if (running.fresh(t, now)) {
            addSampled(t, intervals, at);
            return;
        }
        Frame[] frames = emitter.threadRoots()
                ? new Frame[] {emitter.threadFrame(t.tid), ThreadState.RUNNING.frame()}
                : new Frame[] {ThreadState.RUNNING.frame()};
        int depth = frames.length;
        t.lastLine = null;
        depth = emitter.label(t.tid, now, frames, depth);
        emitter.add(emitter.frames(), depth, intervals, at);
    }

    /**
     * Adds {@code intervals} of a running thread under its latest cpu sample's stack, then {@code [running]}: the
     * stack built once per sample, and built again only when a newer sample came.
     */
    void addSampled(WallThread t, long intervals, long at) {
        if (t.runFrames == null || t.runFramesOf != t.latestCpuTime) {
            int depth = emitter.build(t.latestCpu);
            Frame[] frames = emitter.frames();
            if (t.runFrames == null || t.runFrames.length < depth + 1) {
                t.runFrames = new Frame[Math.max(depth + 1, 32)];
            }
            System.arraycopy(frames, 0, t.runFrames, 0, depth);
            t.runFrames[depth++] = ThreadState.RUNNING.frame();
            t.runDepth = depth;
            t.runFramesOf = t.latestCpuTime;
        }
        t.lastLine = null;
        // Labelled in a copy: the labels may write past the stack, and the built stack is kept for the next ticks.
        int depth = t.runDepth;
        if (scratch.length < depth + 1) {
            scratch = new Frame[depth + 32];
        }
        System.arraycopy(t.runFrames, 0, scratch, 0, depth);
        depth = emitter.label(t.tid, System.nanoTime(), scratch, depth);
        emitter.add(emitter.frames(), depth, intervals, at);
    }

    /** A blocked thread whose stack may have changed: walked, and the stack kept for the visits while it stays. */
    private void walkBlocked(WallThread t, String line, ThreadState state, long now, long at, long intervals) {
        if (keepBlocked(t, line, state, now)) {
            emitter.add(t.lastFrames, t.lastDepth, intervals, at);
        }
    }

    /**
     * Walks a blocked thread and keeps its stack, with its labels at {@code now}, for as long as it stays in the
     * wait; false when it could not be walked (nothing kept).
     */
    boolean keepBlocked(WallThread t, String line, ThreadState state, long now) {
        try {
            int depth = emitter.buildBlocked(t.tid, blocked, state.frame());
            if (depth < 0) {
                t.lastLine = null;
                t.lastFrames = null;
                return false;
            }
            costs.walked();
            t.lastTimeRunning = evidence.timeRunning(t.tid);
            // Kept with the stack: a thread that has not run since cannot have changed its labels.
            depth = emitter.label(t.tid, now, emitter.frames(), depth);
            t.lastFrames = Arrays.copyOf(emitter.frames(), depth);
            t.lastDepth = depth;
            t.lastLine = line;
            return true;
        } catch (IOException ex) {
            t.lastLine = null;
            t.lastFrames = null;
            return false;
        }
    }
}
