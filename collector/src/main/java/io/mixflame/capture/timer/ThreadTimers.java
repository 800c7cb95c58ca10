package io.mixflame.capture.timer;

import io.mixflame.process.linux.LinuxErrno;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads' CPU timers: one per thread of the process, made as threads appear and deleted as they end, each
 * naming the stack copy its samples carry and a slot of the ring's region table (0 when all are taken), and the
 * nudge of those whose expiry the kernel has not seen. Not thread-safe: the sampler thread drives it.
 */
final class ThreadTimers {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadTimers.class);

    /**
     * One thread's timer, the stack copy its samples carry, its region slot (0: none, when all are taken) and whether
     * its stack's bounds were published there.
     */
    private record ThreadTimer(int id, int stackBytes, int slot, boolean placed) {
    }

    private final long periodNanos;
    private final int maxThreads;
    private final Map<Integer, ThreadTimer> timers = new HashMap<>();
    private final Set<Integer> refused = new HashSet<>();
    /** Region slots in use (slot 0 never is). */
    private final BitSet slots = new BitSet(TimerRing.REGION_SLOTS);
    /** The threads with a slot, as arrays for the nudge: made again when the timers change. */
    private int[] nudgeTimers = new int[0];
    private int[] nudgeTids = new int[0];
    private int[] nudgeBytes = new int[0];
    private int[] nudgeSlots = new int[0];
    private int nudgeCount;
    private boolean changed;
    private boolean limitReported;
    private boolean resourceReported;
    /** Threads given a timer so far, ended ones included. */
    private long timed;
    private long placed;
    private long nudges;

    ThreadTimers(long periodNanos, int maxThreads) {
        this.periodNanos = periodNanos;
        this.maxThreads = maxThreads;
    }

    /**
     * Takes the threads listed now ({@code tids}, sorted): ended threads' timers are deleted and their slots cleared
     * in {@code ring}; new threads get a timer copying {@code stackBytes}, or none for the profiler's own
     * ({@code own}, sorted), whose samples are counted, not walked.
     */
    void refresh(int[] tids, int[] own, int stackBytes, TimerRing ring) {
        for (Iterator<Map.Entry<Integer, ThreadTimer>> it = timers.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, ThreadTimer> e = it.next();
            if (Arrays.binarySearch(tids, e.getKey()) < 0) {
                release(e.getValue(), ring);
                it.remove();
                changed = true;
            }
        }
        for (Iterator<Integer> it = refused.iterator(); it.hasNext(); ) {
            if (Arrays.binarySearch(tids, it.next()) < 0) {
                it.remove();
            }
        }
        for (int tid : tids) {
            if (timers.containsKey(tid) || refused.contains(tid)) {
                continue;
            }
            if (timers.size() >= maxThreads) {
                if (!limitReported) {
                    limitReported = true;
                    LOG.warn("sampling {} threads, the limit; further threads are not sampled", maxThreads);
                }
                return;
            }
            int bytes = Arrays.binarySearch(own, tid) >= 0 ? 0 : stackBytes;
            int slot = slots.nextClearBit(1);
            slot = slot < TimerRing.REGION_SLOTS ? slot : 0;
            int id = ThreadTimerLibrary.Calls.mixflame_timer_create(tid, periodNanos, bytes, slot);
            if (id >= 0) {
                if (slot != 0) {
                    slots.set(slot);
                }
                timers.put(tid, new ThreadTimer(id, bytes, slot, false));
                changed = true;
                timed++;
            } else if (id != -LinuxErrno.EINVAL) { // LinuxErrno.EINVAL: the thread ended since it was listed
                refused.add(tid);
                if (id == -LinuxErrno.EAGAIN && !resourceReported) {
                    resourceReported = true;
                    LOG.warn("a CPU timer was refused after {} threads: the user's pending-signal limit is reached "
                            + "(ulimit -i); further threads are not sampled", timers.size());
                }
            }
        }
    }

    /**
     * Signals the threads whose timer is past its expiry without the kernel having seen it; returns how many were.
     */
    long nudgeOverdue() {
        if (changed) {
            changed = false;
            int n = 0;
            int size = timers.size();
            if (nudgeTimers.length < size) {
                nudgeTimers = new int[size];
                nudgeTids = new int[size];
                nudgeBytes = new int[size];
                nudgeSlots = new int[size];
            }
            for (Map.Entry<Integer, ThreadTimer> e : timers.entrySet()) {
                ThreadTimer t = e.getValue();
                if (t.slot() != 0) {
                    nudgeTimers[n] = t.id();
                    nudgeTids[n] = e.getKey();
                    nudgeBytes[n] = t.stackBytes();
                    nudgeSlots[n] = t.slot();
                    n++;
                }
            }
            nudgeCount = n;
        }
        long n = nudgeCount > 0 ? ThreadTimerLibrary.Calls.mixflame_timer_nudge_overdue(nudgeTimers, nudgeTids,
                nudgeBytes, nudgeSlots, nudgeCount) : 0;
        nudges += n;
        return n;
    }

    /** Whether thread {@code tid} has a timer. */
    boolean timed(int tid) {
        return timers.containsKey(tid);
    }

    /** The stack copy thread {@code tid}'s samples carry; 0 without a timer. */
    int stackBytes(int tid) {
        ThreadTimer t = timers.get(tid);
        return t == null ? 0 : t.stackBytes();
    }

    /**
     * Makes thread {@code tid}'s timer again with samples copying {@code bytes}, keeping its slot; false when it has
     * none, already copies as much, or the new timer was refused.
     */
    boolean grow(int tid, int bytes) {
        ThreadTimer old = timers.get(tid);
        if (old == null || old.stackBytes() >= bytes) {
            return false;
        }
        int id = ThreadTimerLibrary.Calls.mixflame_timer_create(tid, periodNanos, bytes, old.slot());
        if (id < 0) {
            return false;
        }
        ThreadTimerLibrary.Calls.mixflame_timer_delete(old.id());
        timers.put(tid, new ThreadTimer(id, bytes, old.slot(), old.placed()));
        changed = true;
        return true;
    }

    /** The slot where thread {@code tid}'s stack bounds are yet to be published; 0 when none is (or it has none). */
    int slotToPlace(int tid) {
        ThreadTimer t = timers.get(tid);
        return t == null || t.placed() ? 0 : t.slot();
    }

    /** Publishes thread {@code tid}'s stack bounds in its slot of {@code ring}. */
    void place(int tid, int slot, long high, long pages, TimerRing ring) {
        ThreadTimer t = timers.get(tid);
        if (t == null || ring == null) {
            return;
        }
        ring.setRegion(slot, high, pages);
        timers.put(tid, new ThreadTimer(t.id(), t.stackBytes(), slot, true));
        placed++;
    }

    /** Deletes every timer. */
    void releaseAll(TimerRing ring) {
        for (ThreadTimer t : timers.values()) {
            release(t, ring);
        }
        timers.clear();
    }

    private void release(ThreadTimer t, TimerRing ring) {
        ThreadTimerLibrary.Calls.mixflame_timer_delete(t.id());
        if (t.slot() != 0 && ring != null) {
            ring.clearRegion(t.slot());
            slots.clear(t.slot());
        }
    }

    /** Threads with a timer now. */
    int size() {
        return timers.size();
    }

    /** Threads whose timer was refused (other than for having ended), among those listed last. */
    int refusedCount() {
        return refused.size();
    }

    /** Threads given a timer so far, ended ones included. */
    long timed() {
        return timed;
    }

    /** Threads whose stack bounds were published, so that their handler copies in place. */
    long placed() {
        return placed;
    }

    /** Threads signalled because their expiry went unseen, so far. */
    long nudges() {
        return nudges;
    }
}
