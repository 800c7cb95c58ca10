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
        int count = index.size();
        long[] threads = new long[count];
        for (int i = 0; i < count; i++) {
            threads[i] = index.thread(i);
        }
        long[] references = new long[count];
        list.nameReferences(threads, count, references);
        // The names to read: new threads', renamed ones', and those whose String a collection moved.
        long[] changed = new long[count];
        int[] at = new int[count];
        int changes = 0;
        for (int i = 0; i < count; i++) {
            ReadName last = read.get(threads[i]);
            if (references[i] != 0 && (last == null || last.reference() != references[i])) {
                changed[changes] = references[i];
                at[changes++] = i;
            }
        }
        String[] names = new String[changes];
        list.strings(changed, changes, names);
        for (int c = 0; c < changes; c++) {
            if (names[c] != null) {
                read.put(threads[at[c]], new ReadName(changed[c], names[c]));
            }
        }
        for (int i = 0; i < count; i++) {
            ReadName last = read.get(threads[i]);
            if (references[i] != 0 && last != null && last.reference() == references[i]) {
                visitor.thread(index.tid(i), last.name());
            }
        }
        return count > 0;
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
        long[] threads = new long[count];
        for (int i = 0; i < count; i++) {
            int at = index.indexOf(tids[i]);
            threads[i] = at < 0 ? 0 : index.thread(at);
        }
        // Gathered reads for all of them: each read apart would wait out a safepoint in progress at its return.
        long[] references = new long[count];
        list.nameReferences(threads, count, references);
        list.strings(references, count, names);
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
