package io.mixflame.engine;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.hotspot.JavaThreadNames;
import io.mixflame.image.ModuleMap;
import io.mixflame.process.ThreadSource;
import io.mixflame.profile.Frame;
import io.mixflame.profile.SampleSink;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names threads by id for per-thread profiles: the full Java name from the JVM's thread list where there is one,
 * else the kernel's 15-byte name.
 *
 * <p>A name must be taken while its thread lives: the walker can be seconds behind the samples on a machine whose
 * cores the application's threads keep busy, and a thread that ended meanwhile has left both lists. So names come three
 * ways: the names the threads told as they started and ended, where the JVM tells them ({@link ThreadLifeNames}),
 * taken first; {@link #record}, called by a thread that names each thread as soon as its first sample is drained and
 * reads the JVM's whole list every second or so (and so also sees renames); and, for a thread not recorded yet, the
 * walker's own look-up of that one thread at its first sample (its Java name, else the kernel's). The walker alone
 * calls {@link #frame}, {@link #name} and {@link #renameRoots}.
 *
 * <p>The walker's look-up can miss a Java thread's name for a moment (a collection moving its {@code String}, the
 * JVM's list read while it changes): such a thread is named provisionally, and when its Java name is recorded the
 * stacks already counted under the provisional name are renamed in the profile ({@link SampleSink#rename}), so that a
 * moment's miss does not leave a thread's first samples under another name.
 */
final class ThreadNames {
    private static final int LIMIT = 65_536;
    private static final int RENAMES_QUEUED = 4096;

    private final ThreadSource threads;
    /** The walker's reader of single threads' Java names; null without a readable JVM. */
    private final JavaThreadNames javaNames;
    private final ConcurrentHashMap<Integer, String> names = new ConcurrentHashMap<>();
    /**
     * The kernel's names of threads as the kernel reported them when they were named (perf's comm records): what a
     * thread that ended unnamed is called, where neither the JVM nor {@code /proc} knows it any more.
     */
    private final ConcurrentHashMap<Integer, String> kernelNames = new ConcurrentHashMap<>();
    /** Names the walker gave threads not recorded yet: a recorded name that differs is a rename. */
    private final ConcurrentHashMap<Integer, String> provisional = new ConcurrentHashMap<>();
    /** Bumped when a thread already named is renamed: the walker then makes its root frames anew. */
    private final AtomicInteger renames = new AtomicInteger();
    private final LongKeyedCache<Frame> roots = new LongKeyedCache<>(LIMIT);
    private int rootsMadeAt;
    /** Threads named provisionally whose recorded name differs, with the provisional name: from the names thread. */
    private final ConcurrentLinkedQueue<Renamed> renamed = new ConcurrentLinkedQueue<>();
    private final AtomicInteger renamedQueued = new AtomicInteger();
    /** Root frames to rename in the profile, old and new in turn: the walker's, until {@link #renameRoots}. */
    private Frame[] rootRenames = new Frame[8];
    private int rootRenameCount;

    /** The names threads told as they started and ended, taken before the JVM's list is read; null without them. */
    private volatile ThreadLifeNames lifeNames;
    private final ThreadLifeNames.Listener recordTold = new RecordTold();
    /**
     * Names threads told as they started: what a thread is called, provisionally, when neither a recorded name nor
     * the JVM's list has it (a thread may rename itself before its work, and the start's name then gives way).
     */
    private final ConcurrentHashMap<Integer, String> toldAtStart = new ConcurrentHashMap<>();

    private record Renamed(int tid, String provisional) {
    }

    /** Where threads' stacks, told as they start, go: the walk's module map; null where none is kept. */
    private final ModuleMap stacks;

    ThreadNames(ThreadSource threads, JavaThreadNames javaNames) {
        this(threads, javaNames, null);
    }

    /** With the module map told the stacks threads tell as they start ({@link ModuleMap#toldStack}). */
    ThreadNames(ThreadSource threads, JavaThreadNames javaNames, ModuleMap stacks) {
        this.threads = threads;
        this.javaNames = javaNames;
        this.stacks = stacks;
    }

    /**
     * The thread's root frame, made once per name: found without boxing the thread id on every sample.
     */
    Frame frame(int tid) {
        int made = renames.get();
        if (made != rootsMadeAt) {
            roots.clear();
            rootsMadeAt = made;
            takeRenamed();
        }
        Frame f = roots.get(tid);
        if (f == null) {
            f = Frame.thread(name(tid), tid);
            roots.put(tid, f);
        }
        return f;
    }

    private void takeRenamed() {
        for (Renamed r; (r = renamed.poll()) != null; ) {
            renamedQueued.decrementAndGet();
            String now = names.get(r.tid);
            if (now == null || now.equals(r.provisional)) {
                continue;
            }
            Frame to = Frame.thread(now, r.tid);
            roots.put(r.tid, to);
            if (rootRenameCount + 2 > rootRenames.length) {
                rootRenames = Arrays.copyOf(rootRenames, rootRenames.length * 2);
            }
            rootRenames[rootRenameCount++] = Frame.thread(r.provisional, r.tid);
            rootRenames[rootRenameCount++] = to;
        }
    }

    /**
     * Renames in {@code sink} the root frames of threads named provisionally whose Java name has been found since:
     * called by the walker after it built a stack and before it adds it, so that the stack's root is the new name's.
     */
    void renameRoots(SampleSink sink) {
        if (rootRenameCount == 0) {
            return;
        }
        for (int i = 0; i < rootRenameCount; i += 2) {
            sink.rename(rootRenames[i], rootRenames[i + 1]);
            rootRenames[i] = null;
            rootRenames[i + 1] = null;
        }
        rootRenameCount = 0;
    }

    /**
     * The thread's name as last recorded, looked up now when it never was: its Java name, recorded; else, for the
     * moment, the name it told as it started, or the kernel's, not recorded, so that the Java name the names thread
     * may still find (or the one it tells as it ends) replaces it.
     */
    String name(int tid) {
        String n = names.get(tid);
        if (n == null && takeTold() > 0) {
            n = names.get(tid);
        }
        if (n != null) {
            return n;
        }
        n = javaNames == null ? null : javaNames.nameOf(tid);
        if (n != null) {
            record(tid, n);
            return n;
        }
        n = toldAtStart.get(tid);
        if (n == null) {
            n = threads.name(tid);
        }
        if (n == null) {
            n = kernelNames.get(tid);
        }
        if (n == null) {
            n = "thread " + tid;
        }
        if (provisional.size() >= LIMIT) {
            provisional.clear();
        }
        provisional.put(tid, n);
        return n;
    }

    /**
     * Asks the JVM again for the Java names of the threads named provisionally, recording those it now gives: for an
     * engine without a names thread, whose walker may meet a thread before the JVM lists it (a thread only starting
     * is the kernel's before it is the JVM's). The walker's; threads the JVM does not list cost a look-up in its
     * index's record of absent threads.
     */
    void retryProvisional() {
        if (javaNames == null || provisional.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, String> e : provisional.entrySet()) {
            String n = javaNames.nameOf(e.getKey());
            if (n != null) {
                record(e.getKey(), n);
            }
        }
    }

    /** Takes the names the threads told ({@link ThreadLifeNames}) since the last call: how many; from any thread. */
    int takeTold() {
        ThreadLifeNames told = lifeNames;
        return told == null ? 0 : told.take(recordTold);
    }

    /**
     * A thread's name at its end is recorded (the last it had); at its start it is kept for when nothing better is
     * known. A class rather than a lambda, which the JVM spins at start-up.
     */
    private final class RecordTold implements ThreadLifeNames.Listener {
        @Override
        public void stack(int tid, long low, long high) {
            if (stacks != null) {
                stacks.toldStack(low, high);
            }
        }

        @Override
        public void told(int tid, String name, boolean ended) {
            if (ended) {
                toldAtStart.remove(tid);
                record(tid, name);
            } else {
                if (toldAtStart.size() >= LIMIT) {
                    toldAtStart.clear();
                }
                toldAtStart.put(tid, name);
            }
        }
    }

    /** The name thread {@code tid} told as it started, if it did and has not ended since; else null. */
    String toldAtStart(int tid) {
        return toldAtStart.get(tid);
    }

    /** Hears the names threads tell as they start and end, from now on. */
    void hear(ThreadLifeNames told) {
        lifeNames = told;
    }

    /** Records the kernel's name of a thread, as it was named; from any thread. */
    void recordKernel(int tid, String name) {
        if (kernelNames.size() >= LIMIT && !kernelNames.containsKey(tid)) {
            kernelNames.clear();
        }
        kernelNames.put(tid, name);
    }

    /** Whether a name was recorded for the thread. */
    boolean named(int tid) {
        return names.containsKey(tid);
    }

    /**
     * Records a living thread's name, from any thread. A different name for a thread already named is a rename:
     * samples walked from now on carry the new one.
     */
    void record(int tid, String name) {
        if (names.size() >= LIMIT && !names.containsKey(tid)) {
            names.clear();
        }
        String before = names.put(tid, name);
        boolean wasProvisional = false;
        if (before == null) {
            before = provisional.remove(tid);
            wasProvisional = before != null;
        }
        if (before != null && !before.equals(name)) {
            // Bounded: past the bound, a provisional name stays on the samples already counted under it.
            if (wasProvisional && renamedQueued.incrementAndGet() <= RENAMES_QUEUED) {
                renamed.add(new Renamed(tid, before));
            } else if (wasProvisional) {
                renamedQueued.decrementAndGet();
            }
            renames.incrementAndGet();
        }
    }
}
