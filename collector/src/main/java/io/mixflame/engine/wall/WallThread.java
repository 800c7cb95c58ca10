package io.mixflame.engine.wall;

import io.mixflame.capture.CapturedThread;
import io.mixflame.engine.SampleEmitter;
import io.mixflame.profile.Frame;

/**
 * What the wall engine knows of one thread between ticks: its {@code /proc} syscall line's reader, the stack its last
 * blocked walk made (added again while the thread has not moved), its latest cpu sample, and the intervals it is owed
 * or holds back to add in bulk. Read and written by the sampler thread only.
 */
final class WallThread {
    final int tid;
    final SyscallLineReader reader;
    String lastLine;
    Frame[] lastFrames;
    int lastDepth;
    CapturedThread latestCpu;
    long latestCpuTime;
    /** When it was last seen blocked: a cpu sample from before that is from an earlier run of the thread. */
    long blockedSeenAt;
    long lastTimeRunning = -1;
    long pending;
    /** When the first of the pending samples was taken, in nanoseconds since the epoch. */
    long pendingSince;
    /** Intervals since the thread was last visited: what its next sample stands for. */
    long owed;
    /** Whether it was switched onto or off a CPU, or sampled, since it was last visited (per-CPU capture). */
    boolean moved = true;
    /** When its latest cpu sample was taken, on the capture's clock. */
    long latestCpuTaken;
    /** The stack built from the latest cpu sample, with {@code [running]}, and which sample it was built from. */
    Frame[] runFrames;
    int runDepth;
    long runFramesOf = -1;

    // Where the capture reports switches ({@link SwitchLedger}): its state since when, and ticks counted not added.
    byte state = SwitchLedger.UNKNOWN;
    long since;
    /** When it last woke: a cpu sample taken since is of this run. */
    long runSince;
    long runPending;
    long blockPending;
    /**
     * Before the ledger counts: the ticks the records put in each state since the thread was last visited
     * ({@link #trackedFrom}) up to its latest record, so that counting, once it starts, gives the ticks owed by then
     * the states they were in rather than the state the thread happens to be in.
     */
    long trackedRun;
    long trackedBlocked;
    long trackedFrom;
    /** Whether its present wait was read from {@code /proc} (its stack kept, or its state not one kept). */
    boolean blockSeen;
    /** The state its present wait was read as, once read (null: not read, or the thread ended). */
    ThreadState waitState;

    WallThread(int tid, SyscallLineReader reader) {
        this.tid = tid;
        this.reader = reader;
    }

    /** Whether it has a kept stack of a blocked call that may stand for it again. */
    boolean keptBlocked() {
        return lastFrames != null && lastLine != null;
    }

    /** Adds the samples it holds back, stamped with the first of them: a thread that did not run is counted in runs. */
    void flush(SampleEmitter emitter) {
        if (pending > 0 && lastFrames != null) {
            addKept(emitter, pending, pendingSince);
        }
        pending = 0;
    }

    /**
     * Adds its kept stack again, under its root frame as it is now: a thread named provisionally when its stack was
     * kept may have its Java name since, and a parked thread's stack is kept for as long as it sleeps.
     */
    void addKept(SampleEmitter emitter, long intervals, long at) {
        if (emitter.threadRoots()) {
            lastFrames[0] = emitter.threadFrame(tid);
        }
        emitter.add(lastFrames, lastDepth, intervals, at);
    }
}
