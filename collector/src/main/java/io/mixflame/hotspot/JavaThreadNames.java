package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;

/**
 * The full Java names of the JVM's threads by OS thread id, read through a reader of its own so that a thread other
 * than the walker's can take them while the threads live, all at once or one by one (see {@link HotSpotVm#threadNames}).
 */
public final class JavaThreadNames {
    /** Receives one thread's id and name. */
    @FunctionalInterface
    public interface Visitor {
        void thread(int tid, String name);
    }

    private final JavaThreadList list;
    private final JavaThreadIndex index;

    JavaThreadNames(JavaThreadList list, HotSpotLayout layout) {
        this.list = list;
        this.index = new JavaThreadIndex(layout, list.reader());
    }

    /**
     * The Java name of one thread, read now: a few reads once the thread is indexed (the index read again, at most
     * five times a second, for a thread it does not know). Null for a thread that is not a Java thread, not yet on
     * the JVM's list, or whose name cannot be read.
     */
    public String nameOf(int tid) {
        int at = index.find(tid);
        return at < 0 ? null : list.name(index.thread(at));
    }

    /**
     * Gives {@code visitor} every Java thread whose name could be read.
     *
     * @return false when the list could not be read consistently (nothing was given)
     */
    public boolean read(Visitor visitor) {
        java.util.List<JavaThreadInfo> threads;
        try {
            threads = list.read();
        } catch (MemoryReadException e) {
            return false;
        }
        for (JavaThreadInfo t : threads) {
            if (t.name() != null && t.tid() > 0) {
                visitor.thread((int) t.tid(), t.name());
            }
        }
        return !threads.isEmpty();
    }
}
