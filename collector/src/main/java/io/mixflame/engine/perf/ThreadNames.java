package io.mixflame.engine.perf;

import io.mixflame.profile.Frame;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaThreadInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Names threads by id for per-thread profiles: the full Java name from the JVM's thread list where there is one,
 * else the kernel's 15-byte name. The JVM's list is read again at most once a second, when an unknown thread shows up.
 */
final class ThreadNames {
    private static final long REFRESH_NANOS = 1_000_000_000L;
    private static final int LIMIT = 65_536;

    private final long pid;
    private final HotSpotVm vm;
    private final Map<Integer, String> names = new HashMap<>();
    private final Map<Integer, NamedRoot> roots = new HashMap<>();
    private long lastRefresh;

    ThreadNames(long pid, HotSpotVm vm) {
        this.pid = pid;
        this.vm = vm;
    }

    /** The thread's root frame, made once for each name the thread has had. */
    Frame frame(int tid) {
        String name = name(tid);
        NamedRoot root = roots.get(tid);
        if (root == null || !root.name().equals(name)) {
            if (roots.size() > LIMIT) {
                roots.clear();
            }
            root = new NamedRoot(name, Frame.thread(name, tid));
            roots.put(tid, root);
        }
        return root.frame();
    }

    private record NamedRoot(String name, Frame frame) {
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
        try {
            n = Files.readString(Path.of("/proc", Long.toString(pid), "task", Integer.toString(tid), "comm"),
                    StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            n = "thread " + tid;
        }
        names.put(tid, n);
        return n;
    }
}
