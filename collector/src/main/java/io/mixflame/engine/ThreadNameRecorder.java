package io.mixflame.engine;

import io.mixflame.hotspot.JavaThreadNames;
import io.mixflame.process.ThreadSource;

/**
 * Takes the names of a process's threads while they live, on a thread of its own, for the walker that may reach
 * their samples after they ended: each new thread's name as soon as its first sample is seen ({@link #recordNew}),
 * and every Java thread's name now and then ({@link #recordAll}), which also sees renames.
 */
public final class ThreadNameRecorder {
    private final JavaThreadNames javaNames;
    private final ThreadNames names;
    private final ThreadSource threads;
    private final JavaThreadNames.Visitor record = new Record();
    /**
     * Times a thread is looked for on the JVM's list before the kernel's name is taken: the names thread calls every
     * 50 ms or sooner, and the list is read again at most every 100 ms, so a Java thread only starting is found.
     */
    public static final int TRIES = 8;
    private String[] found = new String[64];

    ThreadNameRecorder(JavaThreadNames javaNames, ThreadNames names, ThreadSource threads) {
        this.javaNames = javaNames;
        this.names = names;
        this.threads = threads;
    }

    /**
     * Records the names of threads just seen, unless they have one: their Java names, with one read of the JVM's list
     * for all of them. A thread not on that list yet (it was sampled as it started) is asked for again at the next
     * calls, {@value #TRIES} in all, and then named by the kernel.
     *
     * @param tids  the threads, in {@code [0, count)}; those to ask for again are left at the start
     * @return how many are to be asked for again
     */
    public int recordNew(int[] tids, int count, int[] tries) {
        int waiting = 0;
        int asked = 0;
        for (int i = 0; i < count; i++) {
            if (!names.named(tids[i])) {
                tids[asked] = tids[i];
                tries[asked++] = tries[i];
            }
        }
        if (asked == 0) {
            return 0;
        }
        if (found.length < asked) {
            found = new String[Math.max(asked, found.length * 2)];
        }
        javaNames.namesOf(tids, asked, found);
        for (int i = 0; i < asked; i++) {
            String name = found[i];
            found[i] = null;
            if (name == null && tries[i] + 1 < TRIES) {
                tids[waiting] = tids[i];
                tries[waiting++] = tries[i] + 1;
                continue;
            }
            if (name == null) {
                name = names.toldAtStart(tids[i]);
            }
            if (name == null) {
                name = threads.name(tids[i]);
            }
            if (name != null) {
                names.record(tids[i], name);
            }
        }
        return waiting;
    }

    /** Records the names the threads told as they started and ended since the last call ({@link ThreadLifeNames}). */
    public void recordTold() {
        names.takeTold();
    }

    /** Records the kernel's name of a thread as it is named (from perf's comm records, on the sampler). */
    public void kernelNamed(int tid, String name) {
        names.recordKernel(tid, name);
    }

    /** Records the names of all the JVM's threads (reading again only the names that changed). */
    public void recordAll() {
        javaNames.readChanged(record);
    }

    /** A class rather than a method reference, which the JVM spins at start-up. */
    private final class Record implements JavaThreadNames.Visitor {
        @Override
        public void thread(int tid, String name) {
            names.record(tid, name);
        }
    }
}
