package io.mixflame.hotspot;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.process.MemoryReadException;
import java.util.List;

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

    private static final int MAX_NAMED = 65_536;
    private static final long REREAD_NANOS = 100_000_000L;
    private long lastReread = Long.MIN_VALUE / 2;
    private final JavaThreadList list;
    private final JavaThreadIndex index;
    /** The name last read of each {@code JavaThread}, with where its {@code String} was: read again when that moves. */
    private final LongKeyedCache<ReadName> read = new LongKeyedCache<>(MAX_NAMED);

    private record ReadName(long reference, String name) {
    }

    JavaThreadNames(JavaThreadList list, HotSpotLayout layout) {
        this.list = list;
        this.index = new JavaThreadIndex(layout, list.reader());
    }

    /**
     * Gives {@code visitor} every Java thread's name, reading a name's characters only where the thread's name is
     * not the {@code String} it was at the last call (a rename, or a collection that moved it): about five reads a
     * thread, so that a thousand threads can be named every few seconds.
     *
     * @return false when the list could not be read consistently (nothing was given)
     */
    public boolean readChanged(Visitor visitor) {
        if (!index.refreshNow()) {
            return false;
        }
        for (int i = 0; i < index.size(); i++) {
            long thread = index.thread(i);
            long reference;
            try {
                reference = list.nameReference(thread);
            } catch (MemoryReadException | RuntimeException e) {
                continue;
            }
            if (reference == 0) {
                continue;
            }
            ReadName last = read.get(thread);
            if (last == null || last.reference() != reference) {
                String name = list.string(reference);
                if (name == null) {
                    continue;
                }
                last = new ReadName(reference, name);
                read.put(thread, last);
            }
            visitor.thread(index.tid(i), last.name());
        }
        return index.size() > 0;
    }

    /**
     * The Java names of threads just seen: {@code names[i]} gets the name of {@code tids[i]}, or null for a thread not
     * (yet) on the JVM's list. The list is read again for threads it does not know at most every
     * {@value #REREAD_NANOS} ns, not at each call: threads first sampled one after another would otherwise have it read
     * (thousands of reads with thousands of threads) at every call.
     */
    public void namesOf(int[] tids, int count, String[] names) {
        boolean missing = false;
        for (int i = 0; i < count; i++) {
            missing |= index.indexOf(tids[i]) < 0;
        }
        if (missing && System.nanoTime() - lastReread >= REREAD_NANOS) {
            lastReread = System.nanoTime();
            index.refreshNow();
        }
        for (int i = 0; i < count; i++) {
            int at = index.indexOf(tids[i]);
            names[i] = at < 0 ? null : list.name(index.thread(at));
        }
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
        List<JavaThreadInfo> threads;
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
