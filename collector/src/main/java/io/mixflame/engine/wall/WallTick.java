package io.mixflame.engine.wall;

import io.mixflame.engine.EpochClock;
import io.mixflame.engine.SampleEmitter;

/**
 * One wall-clock tick over the followed threads, each owed the tick's intervals: those that have not run since their
 * kept stack (their perf page or the capture's switches say so) are counted again at once, with no system call, and
 * added in bulk; the others are visited in turn ({@link ThreadVisit}), as many as the tick's budget allows (at least
 * one a tick), each visit's sample standing for what its thread is owed.
 */
final class WallTick {
    /**
     * At most this many threads are visited ({@code /proc} read, stack walked) at one tick, and a tick stops visiting
     * once it has taken a quarter of the interval: with thousands of threads that all moved, a tick visits a subset,
     * the others at the next ticks in turn, and each visit's sample stands for every interval since its thread's last
     * one, so that shares stay true and ticks stay on time. Threads whose perf page says they have not run cost no
     * visit.
     */
    static final int MAX_VISITS_PER_TICK = 100;
    /** Ticks a reused stack's samples may wait before they reach the profile (half a second at 20 ms). */
    private static final int FLUSH_TICKS = 25;

    private final WallThreads threads;
    private final RunningSamples running;
    private final RunEvidence evidence;
    private final ThreadVisit visit;
    private final SampleEmitter emitter;
    private final long intervalNanos;
    private final WallCosts costs;
    private final EpochClock clock = new EpochClock();

    WallTick(WallThreads threads, RunningSamples running, RunEvidence evidence, ThreadVisit visit,
             SampleEmitter emitter, long intervalNanos, WallCosts costs) {
        this.threads = threads;
        this.running = running;
        this.evidence = evidence;
        this.visit = visit;
        this.emitter = emitter;
        this.intervalNanos = intervalNanos;
        this.costs = costs;
    }

    /**
     * The tick at {@code now}, due at {@code due}, standing for {@code intervals} of every thread.
     *
     * @return how many threads moved since their last visit, visited now or left for the next ticks
     */
    int tick(long now, long due, int intervals) {
        long at = clock.epochNanos(now);
        costs.ticked();
        WallThread[] all = threads.order();
        int n = all.length;
        int visits = 0;
        // From when the tick was due: a tick that woke late (a core busy, a safepoint) visits less, so that the next
        // one is on time.
        long budgetEnd = due + intervalNanos / 4;
        int resumeAt = -1;
        int moved = 0;
        boolean allMoved = running.takeSwitchesLost();
        for (int k = 0, i = threads.cursor(); k < n; k++, i = i + 1 == n ? 0 : i + 1) {
            WallThread t = all[i];
            t.owed += intervals;
            t.moved |= allMoved;
            running.expire(t, now);
            if (unmoved(t, at)) {
                continue;
            }
            moved++;
            if (resumeAt >= 0) {
                continue;
            }
            visit.visit(t, now, at);
            if (++visits >= MAX_VISITS_PER_TICK || System.nanoTime() - budgetEnd > 0) {
                resumeAt = i + 1 == n ? 0 : i + 1;
            }
        }
        if (resumeAt >= 0) {
            threads.resumeAt(resumeAt);
            costs.partialTick();
        }
        return moved;
    }

    /**
     * Counts the thread's kept stack again when it has not run since: its perf page says so (a ring per thread), or
     * no switch of it onto a CPU was reported (per-CPU rings). No system call: the cost of many idle threads is a
     * memory read per tick. Counted here, added in bulk.
     */
    private boolean unmoved(WallThread t, long at) {
        if (!t.keptBlocked() || !evidence.unmoved(t)) {
            return false;
        }
        costs.reused();
        if (t.pending == 0) {
            t.pendingSince = at;
        }
        t.pending += t.owed;
        t.owed = 0;
        if (t.pending >= FLUSH_TICKS) {
            t.flush(emitter);
        }
        return true;
    }
}
