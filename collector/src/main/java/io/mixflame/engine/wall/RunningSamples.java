package io.mixflame.engine.wall;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.SampleCapture;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The running threads' latest cpu samples, the stacks the wall engine gives a thread it finds running: each sample of
 * the perf feed copied over its thread's last (a bounded number of copies, given back once too old to stand for a
 * tick), and each thread sampled or switched onto or off a CPU marked as moved. The feed's consumer and the capture's
 * switch listener: a class rather than lambdas, which the JVM spins at start-up. On the sampler thread only.
 */
final class RunningSamples implements Consumer<RawSample>, SampleCapture.SwitchListener, BooleanSupplier {
    /**
     * Copies kept at once: only those of the last two intervals stand for a tick, and the CPUs take a few samples each
     * per interval.
     */
    private static final int MAX_COPIES = 256;

    private final WallThreads threads;
    /** How old a copy may be and still stand for a tick: two intervals. */
    private final long freshNanos;
    private final ArrayDeque<CapturedThread> freeCopies = new ArrayDeque<>();
    private int copiesMade;
    /** Switch records were lost: every thread may have run. */
    private boolean switchesLost;
    /** Where switches and samples are kept in for the ledger; null without it. */
    private SwitchEvents events;

    RunningSamples(WallThreads threads, long intervalNanos) {
        this.threads = threads;
        this.freshNanos = 2 * intervalNanos;
    }

    /** Copies the sample over its thread's latest. */
    @Override
    public void accept(RawSample s) {
        WallThread t = threads.get(s.tid);
        if (t == null) {
            return;
        }
        // Moved, even when no copy is left to keep its stack in: its kept stack of a blocked call no longer stands.
        t.moved = true;
        if (events != null) {
            events.add(s.tid, SwitchEvents.SAMPLE, s.time);
        }
        if (t.latestCpu == null) {
            t.latestCpu = freeCopies.poll();
            if (t.latestCpu == null) {
                if (copiesMade >= MAX_COPIES) {
                    return;
                }
                copiesMade++;
                t.latestCpu = CapturedThread.offHeap(s.stack.length);
            }
        }
        s.copyTo(t.latestCpu);
        t.latestCpuTime = System.nanoTime();
        t.latestCpuTaken = s.time;
    }

    @Override
    public void switched(int tid, int kind, long time) {
        WallThread t = threads.get(tid);
        if (t != null) {
            t.moved = true;
            if (events != null) {
                events.add(tid, kind, time);
            }
        }
    }

    /** The events kept for the ledger, or null. */
    SwitchEvents events() {
        return events;
    }

    /** Keeps the switches and the samples' times in {@code events} from now on, for the ledger. */
    void recordEvents(SwitchEvents events) {
        this.events = events;
    }

    /** Whether the drain may hand over another record: the events have room (always, without them). */
    @Override
    public boolean getAsBoolean() {
        return events == null || events.hasRoom();
    }

    @Override
    public void lost() {
        switchesLost = true;
    }

    /** Whether switch records were lost since the last call. */
    boolean takeSwitchesLost() {
        boolean lost = switchesLost;
        switchesLost = false;
        return lost;
    }

    /** Whether the thread's latest sample, taken after it was last seen blocked, is fresh enough at {@code now}. */
    boolean fresh(WallThread t, long now) {
        return t.latestCpu != null && t.latestCpuTime > t.blockedSeenAt && now - t.latestCpuTime < freshNanos;
    }

    /** Gives the thread's copy back when it is too old to stand for a tick at {@code now}. */
    void expire(WallThread t, long now) {
        if (t.latestCpu != null && now - t.latestCpuTime >= freshNanos) {
            release(t);
        }
    }

    /** Gives the thread's copy back, if it has one. */
    void release(WallThread t) {
        if (t.latestCpu != null) {
            freeCopies.push(t.latestCpu);
            t.latestCpu = null;
        }
    }
}
