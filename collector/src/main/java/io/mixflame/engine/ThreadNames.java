package io.mixflame.engine;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.hotspot.JavaThreadNames;
import io.mixflame.process.ThreadSource;
import io.mixflame.profile.Frame;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names threads by id for per-thread profiles: the full Java name from the JVM's thread list where there is one,
 * else the kernel's 15-byte name.
 *
 * <p>A name must be taken while its thread lives: the walker can be seconds behind the samples on a machine whose
 * cores the application's threads keep busy, and a thread that ended meanwhile has left both lists. So names come two
 * ways: {@link #record}, called by a thread that names each thread as soon as its first sample is drained and reads
 * the JVM's whole list every second or so (and so also sees renames), and, for a thread not recorded yet, the
 * walker's own look-up of that one thread at its first sample (its Java name, else the kernel's). The walker alone
 * calls {@link #frame} and {@link #name}.
 */
final class ThreadNames {
    private static final int LIMIT = 65_536;

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

    ThreadNames(ThreadSource threads, JavaThreadNames javaNames) {
        this.threads = threads;
        this.javaNames = javaNames;
    }

    /**
     * The thread's root frame, made once per name: found without boxing the thread id on every sample.
     */
    Frame frame(int tid) {
        int made = renames.get();
        if (made != rootsMadeAt) {
            roots.clear();
            rootsMadeAt = made;
        }
        Frame f = roots.get(tid);
        if (f == null) {
            f = Frame.thread(name(tid), tid);
            roots.put(tid, f);
        }
        return f;
    }

    /**
     * The thread's name as last recorded, looked up now when it never was: its Java name, recorded; else, for the
     * moment, the kernel's, not recorded, so that the Java name the names thread may still find replaces it.
     */
    String name(int tid) {
        String n = names.get(tid);
        if (n != null) {
            return n;
        }
        n = javaNames == null ? null : javaNames.nameOf(tid);
        if (n != null) {
            record(tid, n);
            return n;
        }
        n = threads.name(tid);
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
        if (before == null) {
            before = provisional.remove(tid);
        }
        if (before != null && !before.equals(name)) {
            renames.incrementAndGet();
        }
    }
}
