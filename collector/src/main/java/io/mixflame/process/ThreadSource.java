package io.mixflame.process;

/**
 * The threads of one process: which exist now and what the operating system calls them. {@code /proc/PID/task} on
 * Linux; a thread snapshot of the process on Windows.
 */
public interface ThreadSource {

    /**
     * The number of threads now, or -1 when it cannot be read: a cheap test, made often, of whether threads started
     * or ended since the last {@link #list()}.
     */
    int count();

    /** The ids of the threads alive now, in no particular order; empty when the process cannot be read. */
    int[] list();

    /** Whether thread {@code tid} is alive now; by default looked for in {@link #list()}. */
    default boolean alive(int tid) {
        for (int t : list()) {
            if (t == tid) {
                return true;
            }
        }
        return false;
    }

    /** The operating system's name of a thread, or null when it has none or has ended. */
    String name(int tid);

    /**
     * The CPU time, user and system, thread {@code tid} has used so far, in nanoseconds, or -1 when it cannot be read
     * (it ended). Its resolution is the system's accounting tick (10 ms on Linux; the scheduler's quantum on
     * Windows): a sampler weighs by the difference between two reads, not by one.
     */
    long cpuTimeNanos(int tid);
}
