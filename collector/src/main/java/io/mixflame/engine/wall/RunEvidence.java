package io.mixflame.engine.wall;

import io.mixflame.capture.perf.SampleCapture;

/**
 * What tells the wall engine, without a system call, whether a thread has run since its stack was kept: the capture's
 * count of its time running (a ring per thread, whose mapped page keeps it), or the switches onto and off CPUs the
 * capture reports (a ring per CPU); nothing where no capture could be opened.
 */
final class RunEvidence {
    /** Null where no capture could be opened. */
    private final SampleCapture capture;
    private final boolean runTimes;
    private final boolean switches;

    RunEvidence(SampleCapture capture) {
        this.capture = capture;
        this.runTimes = capture != null && capture.tellsTimeRunning();
        this.switches = capture != null && capture.reportsSwitches();
    }

    /** Whether the capture reports every switch onto and off a CPU (per-CPU rings). */
    boolean reportsSwitches() {
        return switches;
    }

    /** Whether the evidence says {@code t} has not run since its kept stack was walked. */
    boolean unmoved(WallThread t) {
        if (runTimes) {
            long ran = capture.timeRunning(t.tid);
            return ran >= 0 && ran == t.lastTimeRunning;
        }
        return switches && !t.moved;
    }

    /**
     * At a visit of {@code t}: whether the evidence says it ran since the last one (never, without evidence), taken
     * so that the next visit asks from now.
     */
    boolean ranSinceVisit(WallThread t) {
        boolean ran = switches && t.moved;
        t.moved = false;
        if (runTimes && t.keptBlocked()) {
            long time = capture.timeRunning(t.tid);
            ran = time != t.lastTimeRunning;
            t.lastTimeRunning = time;
        }
        return ran;
    }

    /** How long thread {@code tid} has run while sampled, or -1 when the capture cannot tell. */
    long timeRunning(int tid) {
        return runTimes ? capture.timeRunning(tid) : -1;
    }
}
