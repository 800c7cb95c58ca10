package io.mixflame.engine;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaThreadInfo;
import io.mixflame.process.ThreadSource;
import io.mixflame.profile.Frame;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names threads by id for per-thread profiles: the full Java name from the JVM's thread list where there is one,
 * else the kernel's 15-byte name.
 *
 * <p>A name must be taken while its thread lives: the walker can be hundreds of milliseconds behind the samples at
 * start-up, and a thread that ended meanwhile has left both lists. So names come two ways: {@link #record}, called
 * by a thread that reads the JVM's list while threads start and every second (and so also sees renames), and, for a
 * thread not recorded, the walker's own look-up at its first sample (the JVM's list read again at most once a
 * second, then the kernel's name). The walker alone calls {@link #frame} and {@link #name}.
 */
final class ThreadNames {
    private static final long REFRESH_NANOS = 1_000_000_000L;
    private static final int LIMIT = 65_536;

    private final ThreadSource threads;
    private final HotSpotVm vm;
    private final ConcurrentHashMap<Integer, String> names = new ConcurrentHashMap<>();
    /** Bumped when a thread already named is renamed: the walker then makes its root frames anew. */
    private final AtomicInteger renames = new AtomicInteger();
    private final LongKeyedCache<Frame> roots = new LongKeyedCache<>(LIMIT);
    private int rootsMadeAt;
    private long lastRefresh;

    ThreadNames(ThreadSource threads, HotSpotVm vm) {
        this.threads = threads;
        this.vm = vm;
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

    /** The thread's name as last recorded, looked up now when it never was. */
    String name(int tid) {
        String n = names.get(tid);
        if (n != null) {
            return n;
        }
        long now = System.nanoTime();
        if (vm != null && now - lastRefresh > REFRESH_NANOS) {
            lastRefresh = now;
            for (JavaThreadInfo t : vm.javaThreads()) {
                if (t.name() != null) {
                    record((int) t.tid(), t.name());
                }
            }
            n = names.get(tid);
            if (n != null) {
                return n;
            }
        }
        n = threads.name(tid);
        if (n == null) {
            n = "thread " + tid;
        }
        record(tid, n);
        return n;
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
        if (before != null && !before.equals(name)) {
            renames.incrementAndGet();
        }
    }
}
