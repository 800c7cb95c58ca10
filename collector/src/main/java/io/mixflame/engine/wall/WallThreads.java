package io.mixflame.engine.wall;

import io.mixflame.capture.perf.OpenFileLimit;
import io.mixflame.engine.SampleEmitter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The threads the wall engine follows, each with its {@code /proc} reader, and the order its ticks visit them in:
 * taken from each listing of the process's threads (those that ended forgotten, new ones followed up to a bound),
 * with descriptors held open for as many readers as a share of the open-file limit allows. On the sampler thread only.
 */
final class WallThreads {
    /** Threads followed; those past it are not sampled (the bound on what is kept per thread). */
    private static final int MAX_THREADS = 32_768;
    /** The part of the process's open-file limit the threads' {@code /proc} files may hold open. */
    private static final int FILE_LIMIT_SHARE = 4;

    private final long pid;
    private final Map<Integer, WallThread> threads = new HashMap<>();
    /** Readers that hold a descriptor, within {@link #readerBudget}. */
    private int openReaders;
    private final long readerBudget = OpenFileLimit.soft() / FILE_LIMIT_SHARE;
    private final ByteBuffer readScratch = ByteBuffer.allocate(256);
    /** The threads in the order ticks visit them, from {@link #cursor} on. */
    private WallThread[] order = new WallThread[0];
    private int cursor;

    WallThreads(long pid) {
        this.pid = pid;
    }

    /** The thread {@code tid}, or null when it is not followed. */
    WallThread get(int tid) {
        return threads.get(tid);
    }

    /** The threads in the order ticks visit them. */
    WallThread[] order() {
        return order;
    }

    /** Where the next tick's visits begin in {@link #order}. */
    int cursor() {
        return cursor;
    }

    /** The next tick's visits begin at {@code index}. */
    void resumeAt(int index) {
        cursor = index;
    }

    /**
     * Follows the listed threads {@code tids}, but {@code samplerTid}, and forgets those not listed: their held-back
     * samples added through {@code emitter} (or the {@code ledger}'s, where it counts), their descriptor and stack
     * copy given back.
     *
     * @return every thread listed, or null when the list could not be read (nothing changes then)
     */
    Set<Integer> refresh(int[] tids, int samplerTid, SampleEmitter emitter, RunningSamples running,
                         SwitchLedger ledger) {
        if (tids.length == 0) {
            return null;
        }
        Set<Integer> alive = new HashSet<>(tids.length * 2);
        for (int tid : tids) {
            alive.add(tid);
        }
        Set<Integer> all = new HashSet<>(alive);
        alive.remove(samplerTid);
        for (Iterator<Map.Entry<Integer, WallThread>> it = threads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, WallThread> e = it.next();
            if (!alive.contains(e.getKey())) {
                WallThread t = e.getValue();
                if (ledger != null) {
                    ledger.flush(t);
                } else {
                    t.flush(emitter);
                }
                openReaders -= t.reader.open() ? 1 : 0;
                t.reader.close();
                running.release(t);
                it.remove();
            }
        }
        for (int tid : alive) {
            if (!threads.containsKey(tid) && threads.size() < MAX_THREADS) {
                try {
                    SyscallLineReader reader = new SyscallLineReader(pid, tid, openReaders < readerBudget,
                            readScratch);
                    openReaders += reader.open() ? 1 : 0;
                    threads.put(tid, new WallThread(tid, reader));
                    if (emitter.threadRoots()) {
                        // Named while it lives: its samples may be added after it ended, when its name is gone.
                        emitter.threadFrame(tid);
                    }
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        }
        order = threads.values().toArray(new WallThread[0]);
        cursor = order.length == 0 ? 0 : cursor % order.length;
        return all;
    }

    /** Forgets every thread, once sampling ends: its held-back samples added through {@code emitter}. */
    void clear(SampleEmitter emitter) {
        for (WallThread t : threads.values()) {
            t.flush(emitter);
            t.reader.close();
        }
        threads.clear();
    }
}
