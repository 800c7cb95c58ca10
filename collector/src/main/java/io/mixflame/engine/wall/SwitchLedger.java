package io.mixflame.engine.wall;

import io.mixflame.capture.perf.SampleCapture.SwitchListener;
import io.mixflame.engine.EpochClock;
import io.mixflame.engine.SampleEmitter;
import io.mixflame.profile.Frame;
import java.io.IOException;
import java.util.EnumSet;

/**
 * The wall clock counted from the kernel's records, where the capture reports every switch of the process's threads
 * onto and off CPUs with its time (per-CPU rings): each thread's time is running (on a CPU, or preempted and waiting
 * for one) from when it woke until it is switched off to wait, and blocked from then until it is switched on again.
 * The ticks are the points of a fixed grid ({@code interval} apart from when sampling began), and each thread is
 * counted at every grid point in its state then, from its records, however late the sampler reads them: on a machine
 * whose threads want many times its cores, the sampler runs seldom and late, but the kernel wrote each switch when it
 * happened, and the rings hold them until read. The sampler's own work per tick is then what changed: no {@code /proc}
 * read or walk for a thread that only ran or was preempted.
 *
 * <p>Stacks: a thread's running ticks take the stack of its first cpu sample after them in the same run (since it last
 * woke), or of its latest in that run, or none ({@code [running]} alone) where the run had none: the cpu capture
 * samples at a fraction of the interval, and a thread that has a core a hundredth of the time is sampled seldom. A
 * blocked thread is read from {@code /proc} (its system call, then its stack, without stopping it) at the sampler's
 * next pass, once per wait; a wait that ended before that read is counted {@code [blocked]} with no stack.
 *
 * <p>It counts once the sampler has fallen behind its ticks (most of the last few came late); until then it only
 * follows each thread's state, and each tick visits the threads that moved ({@link WallTick}), reading a waiting
 * thread's wait at the tick, which names short waits better than a read at a late pass can.
 *
 * <p>Records lost (a full ring) leave every state unknown from then: threads are read from {@code /proc} again, and the
 * grid points since the last pass are not counted as ticks. On the sampler thread only.
 */
final class SwitchLedger {
    static final byte UNKNOWN = 0;
    static final byte RUNNING = 1;
    static final byte BLOCKED = 2;
    /** Ticks a thread's counted samples may wait before they reach the profile (half a second at 20 ms). */
    private static final int FLUSH_TICKS = 25;

    private final WallThreads threads;
    private final RunningSamples running;
    private final ThreadVisit visit;
    private final SampleEmitter emitter;
    private final EnumSet<ThreadState> states;
    private final WallCosts costs;
    private final long intervalNanos;
    /** The grid's origin: ticks fall at {@code origin + k * intervalNanos}. */
    private final long origin;
    private final EpochClock clock = new EpochClock();
    private final Frame[] bare = new Frame[2];
    /** A pass's waits that began since the last grid point, read once those that hold ticks were. */
    private final WallThread[] freshWaits = new WallThread[WallTick.MAX_VISITS_PER_TICK];
    /** Where the previous pass brought every thread to. */
    private long horizon;
    /** Whether the ticks are counted here (else the states only followed, the ticks visiting). */
    private boolean counting;

    SwitchLedger(WallThreads threads, RunningSamples running, ThreadVisit visit, SampleEmitter emitter,
                 EnumSet<ThreadState> states, WallCosts costs, long intervalNanos, long origin) {
        this.threads = threads;
        this.running = running;
        this.visit = visit;
        this.emitter = emitter;
        this.states = states;
        this.costs = costs;
        this.intervalNanos = intervalNanos;
        this.origin = origin;
        this.horizon = origin;
    }

    /** The grid points in {@code (from, to]}. */
    long ticks(long from, long to) {
        long a = Math.max(from, origin) - origin;
        long b = Math.max(to, origin) - origin;
        return b <= a ? 0 : b / intervalNanos - a / intervalNanos;
    }

    /**
     * Applies a drain's events, sorted, up to {@code completeAt} (the time before which every ring's records have been
     * read): later ones wait for the next drain, which may bring older records from a ring read before they were
     * written (the rings are read one after another, and the relay thread moves them one after another, preempted
     * perhaps for long between two). A thread's records applied out of order would leave it in the state of the
     * older, a woken thread counted as waiting or a waiting one as running until its next switch. Where the events
     * fill the buffer with none before {@code completeAt}, they are all applied rather than the drain stalled.
     */
    void apply(SwitchEvents events, long completeAt) {
        events.sort();
        int n = events.size();
        int upTo = 0;
        while (upTo < n && events.time(upTo) < completeAt) {
            upTo++;
        }
        if (upTo == 0 && !events.hasRoom()) {
            upTo = n;
        }
        for (int i = 0; i < upTo; i++) {
            WallThread t = threads.get(events.tid(i));
            if (t != null) {
                apply(t, events.kind(i), events.time(i));
            }
        }
        events.keepFrom(upTo);
    }

    private void apply(WallThread t, int kind, long time) {
        if (!counting) {
            track(t, kind, time);
            return;
        }
        if (t.state == UNKNOWN) {
            // Its first record: running from here on (switched on, sampled or preempted), or blocked from here. The
            // time since it was followed is what the record says came before: off a CPU (a wait, or a wait for a
            // core) before a switch onto one, running before anything else.
            if (time >= t.since) {
                if (t.since != 0) {
                    if (kind == SwitchListener.IN) {
                        t.blockPending += ticks(t.since, time);
                        t.blockSeen = false;
                        addBlocked(t);
                    } else {
                        t.runPending += ticks(t.since, time);
                        t.runSince = t.since;
                        addRunning(t);
                    }
                }
                t.state = kind == SwitchListener.OUT_BLOCKED ? BLOCKED : RUNNING;
                t.since = time;
                t.runSince = time;
                t.blockSeen = false;
            }
            return;
        }
        // A record older than the thread's last (a drain that stopped in mid-ring) changes nothing past.
        long at = Math.max(time, t.since);
        if (t.state == BLOCKED) {
            if (kind == SwitchListener.OUT_BLOCKED) {
                return;
            }
            t.blockPending += ticks(t.since, at);
            addBlocked(t);
            t.state = RUNNING;
            t.since = at;
            t.runSince = at;
            t.blockSeen = false;
            if (kind == SwitchEvents.SAMPLE) {
                addRunning(t);
            }
            return;
        }
        if (kind == SwitchListener.IN || kind == SwitchListener.OUT_PREEMPTED) {
            return;
        }
        t.runPending += ticks(t.since, at);
        t.since = at;
        addRunning(t);
        if (kind == SwitchListener.OUT_BLOCKED) {
            t.state = BLOCKED;
            t.blockSeen = false;
            // Its copy stands for this run only: given back for the threads that run now.
            running.release(t);
        }
    }

    /** Before it counts: each thread's state followed, and nothing counted or added. */
    private void track(WallThread t, int kind, long time) {
        if (time < t.since) {
            return;
        }
        if (t.since != 0 && t.state != UNKNOWN) {
            long counted = ticks(Math.max(t.since, t.trackedFrom), time);
            if (t.state == RUNNING) {
                t.trackedRun += counted;
            } else {
                t.trackedBlocked += counted;
            }
        }
        t.since = time;
        if (kind == SwitchListener.OUT_BLOCKED) {
            t.state = BLOCKED;
            t.blockSeen = false;
        } else if (t.state != RUNNING) {
            t.state = RUNNING;
            t.runSince = time;
        }
    }

    /** Whether the ledger counts the ticks (the sampler fell behind), rather than only following the states. */
    boolean counting() {
        return counting;
    }

    /**
     * Counts the ticks from {@code at} (the last tick visited) on, with the records drained next: the sampler has
     * fallen behind its ticks, and visiting threads at each tick no longer keeps up. Each thread's intervals owed by
     * the ticks so far (not yet visited) are counted in its state, from as long before {@code at}; the samples held
     * back are added.
     */
    void startCounting(long at) {
        counting = true;
        horizon = at;
        for (WallThread t : threads.order()) {
            t.flush(emitter);
            t.runPending = 0;
            t.blockPending = 0;
            t.blockSeen = false;
            long owed = Math.max(0, t.owed);
            t.owed = 0;
            long tracked = t.trackedRun + t.trackedBlocked;
            if (t.state != UNKNOWN && t.since != 0 && t.since >= t.trackedFrom && tracked > 0) {
                // Records came since its last visit: up to the latest, the ticks are in the states they said; from it
                // on, in the state it is in.
                t.runPending = t.trackedRun;
                addRunning(t);
                t.blockPending = t.trackedBlocked;
                if (t.state != BLOCKED) {
                    addBlocked(t);
                }
                t.since = Math.max(origin, t.since);
            } else {
                t.since = Math.max(origin, at - owed * intervalNanos);
                if (t.state == RUNNING) {
                    t.runSince = Math.min(t.runSince, t.since);
                }
            }
            t.trackedRun = 0;
            t.trackedBlocked = 0;
        }
    }

    /**
     * Brings every thread to {@code now} (the capture's clock, read before the drain whose events were applied): the
     * ticks of its state since counted, threads blocked in a wait not yet read visited from {@code /proc} (within the
     * tick's budget), those of unknown state visited; {@code lost} when records were lost since the last pass.
     *
     * @param budgetEnd when the visits stop ({@link System#nanoTime()}), the rest waiting for the next pass
     */
    void pass(long now, boolean lost, long budgetEnd) {
        long to = Math.max(now, horizon);
        if (lost) {
            costs.recordsLost();
        } else {
            costs.accounted(ticks(horizon, to));
        }
        horizon = to;
        WallThread[] all = threads.order();
        int visits = 0;
        int fresh = 0;
        for (WallThread t : all) {
            if (lost) {
                flush(t);
                t.state = UNKNOWN;
            }
            if (t.state == UNKNOWN) {
                if (t.since == 0) {
                    t.since = to; // followed from now
                }
                if (visits < WallTick.MAX_VISITS_PER_TICK && System.nanoTime() - budgetEnd < 0) {
                    visits++;
                    look(t, to);
                }
                continue;
            }
            long counted = ticks(t.since, to);
            if (t.state == RUNNING) {
                t.runPending += counted;
                if (t.runPending >= FLUSH_TICKS) {
                    addRunning(t);
                }
            } else {
                t.blockPending += counted;
                if (!t.blockSeen) {
                    // Waits that hold ticks are read first: a wait between two grid points counts nothing.
                    if (t.blockPending > 0) {
                        if (visits < WallTick.MAX_VISITS_PER_TICK && System.nanoTime() - budgetEnd < 0) {
                            visits++;
                            readBlocked(t);
                        }
                    } else if (fresh < freshWaits.length) {
                        freshWaits[fresh++] = t;
                    }
                } else if (t.blockPending >= FLUSH_TICKS) {
                    addBlocked(t);
                }
            }
            t.since = Math.max(t.since, to);
        }
        // Then, with what is left of the budget, the waits that began since the last grid point: read now, before
        // they may end, in case they last past the next one.
        for (int i = 0; i < fresh; i++) {
            WallThread t = freshWaits[i];
            freshWaits[i] = null;
            if (!t.blockSeen && t.state == BLOCKED && visits < WallTick.MAX_VISITS_PER_TICK
                    && System.nanoTime() - budgetEnd < 0) {
                visits++;
                readBlocked(t);
            }
        }
    }

    /**
     * A thread of unknown state: its {@code /proc} line says whether it runs or waits, and in what, and its time since
     * it was followed is counted so (no record came meanwhile: it did not change).
     */
    private void look(WallThread t, long now) {
        String line;
        try {
            line = t.reader.read();
        } catch (IOException e) {
            return;
        }
        long counted = ticks(t.since, now);
        t.since = now;
        t.runSince = now;
        if (SyscallLineReader.isRunning(line)) {
            t.state = RUNNING;
            t.runPending += counted;
        } else {
            t.state = BLOCKED;
            t.blockSeen = false;
            t.blockPending += counted;
            keepBlocked(t, line);
            addBlocked(t);
        }
    }

    /** A thread blocked in a wait not yet read: its stack, walked once for the wait. */
    private void readBlocked(WallThread t) {
        String line;
        try {
            line = t.reader.read();
        } catch (IOException e) {
            // Ended: its last switch off a CPU was its end, not a wait.
            t.blockPending = 0;
            t.blockSeen = true;
            t.lastFrames = null;
            t.waitState = null;
            return;
        }
        if (SyscallLineReader.isRunning(line)) {
            return; // woke: its switch onto a CPU is in a ring not yet drained
        }
        keepBlocked(t, line);
        addBlocked(t);
    }

    private void keepBlocked(WallThread t, String line) {
        ThreadState state = ThreadState.ofSyscall(SyscallLineReader.syscall(line));
        t.blockSeen = true;
        t.waitState = state;
        if (!states.contains(state)) {
            t.lastFrames = null;
            return;
        }
        visit.keepBlocked(t, line, state, System.nanoTime());
    }

    /** Adds the thread's counted blocked ticks: under its wait's stack, or {@code [blocked]} where none was read. */
    private void addBlocked(WallThread t) {
        long n = t.blockPending;
        if (n == 0) {
            return;
        }
        t.blockPending = 0;
        long at = clock.epochNanos(t.since);
        if (t.blockSeen) {
            if (t.lastFrames != null) {
                t.addKept(emitter, n, at);
                costs.reused();
            } else if (t.waitState != null && states.contains(t.waitState)) {
                // Its wait was read but its stack could not be walked (it moved meanwhile): the wait alone.
                addBare(t, t.waitState.frame(), n, at);
            }
        } else if (states.contains(ThreadState.BLOCKED)) {
            addBare(t, ThreadState.BLOCKED.frame(), n, at);
        }
    }

    /** Adds the thread's counted running ticks: under its latest cpu sample of this run, or {@code [running]} alone. */
    private void addRunning(WallThread t) {
        long n = t.runPending;
        if (n == 0) {
            return;
        }
        t.runPending = 0;
        if (!states.contains(ThreadState.RUNNING)) {
            return;
        }
        long at = clock.epochNanos(t.since);
        if (t.latestCpu != null && t.latestCpuTaken >= t.runSince) {
            visit.addSampled(t, n, at);
        } else {
            addBare(t, ThreadState.RUNNING.frame(), n, at);
        }
    }

    private void addBare(WallThread t, Frame state, long n, long at) {
        int depth = 0;
        if (emitter.threadRoots()) {
            bare[depth++] = emitter.threadFrame(t.tid);
        }
        bare[depth++] = state;
        emitter.add(bare, depth, n, at);
    }

    /** Adds what the thread has counted and not added: it ended, or sampling ends. */
    void flush(WallThread t) {
        addRunning(t);
        if (t.blockSeen) {
            addBlocked(t);
        }
        t.blockPending = 0;
        t.flush(emitter);
    }

    /** Adds what every thread has counted, once sampling ends. */
    void flushAll() {
        for (WallThread t : threads.order()) {
            flush(t);
        }
    }
}
