package io.mixflame.engine;

import io.mixflame.profile.Frame;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaThreadInfo;
import io.mixflame.process.ThreadSource;
import java.util.HashMap;
import java.util.Map;

/**
 * Names threads by id for per-thread profiles: the full Java name from the JVM's thread list where there is one,
 * else the kernel's 15-byte name. The JVM's list is read again at most once a second, when an unknown thread shows up.
 */
final class ThreadNames {
    private static final long REFRESH_NANOS = 1_000_000_000L;
    private static final int LIMIT = 65_536;

    private final ThreadSource threads;
    private final HotSpotVm vm;
    private final Map<Integer, String> names = new HashMap<>();
    private final io.mixflame.cache.LongKeyedCache<Frame> roots = new io.mixflame.cache.LongKeyedCache<>(LIMIT);
    private long lastRefresh;

    ThreadNames(ThreadSource threads, HotSpotVm vm) {
        this.threads = threads;
        this.vm = vm;
    }

    /**
     * The thread's root frame, made once: a thread's name is taken once and kept (see {@link #name}), so the frame
     * is too, found without boxing the thread id on every sample.
     */
    Frame frame(int tid) {
        Frame f = roots.get(tid);
        if (f == null) {
            f = Frame.thread(name(tid), tid);
            roots.put(tid, f);
        }
        return f;
    }

    String name(int tid) {
        String n = names.get(tid);
        if (n != null) {
            return n;
        }
        long now = System.nanoTime();
        if (vm != null && now - lastRefresh > REFRESH_NANOS) {
            lastRefresh = now;
            if (names.size() > LIMIT) {
                names.clear();
            }
            for (JavaThreadInfo t : vm.javaThreads()) {
                if (t.name() != null) {
                    names.put((int) t.tid(), t.name());
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
        names.put(tid, n);
        return n;
    }
}
