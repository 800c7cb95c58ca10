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

    ThreadNameRecorder(JavaThreadNames javaNames, ThreadNames names, ThreadSource threads) {
        this.javaNames = javaNames;
        this.names = names;
        this.threads = threads;
    }

    /** Records the name of thread {@code tid}, unless it has one: its Java name, else the kernel's. */
    public void recordNew(int tid) {
        if (names.named(tid)) {
            return;
        }
        String name = javaNames.nameOf(tid);
        if (name == null) {
            name = threads.name(tid);
        }
        if (name == null) {
            return; // ended already: the walker falls back on the kernel's name, if it reported one
        }
        names.record(tid, name);
    }

    /** Records the kernel's name of a thread as it is named (from perf's comm records, on the sampler). */
    public void kernelNamed(int tid, String name) {
        names.recordKernel(tid, name);
    }

    /** Records the names of all the JVM's threads. */
    public void recordAll() {
        javaNames.read(record);
    }

    /** A class rather than a method reference, which the JVM spins at start-up. */
    private final class Record implements JavaThreadNames.Visitor {
        @Override
        public void thread(int tid, String name) {
            names.record(tid, name);
        }
    }
}
