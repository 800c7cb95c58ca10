package io.mixflame.engine;

/**
 * Java names of threads as the threads themselves told them when they started and ended, kept until a profiler
 * thread takes them: the names of threads that ended while the profiler's threads stood still (safepoints, a
 * machine whose cores the application keeps busy), which the JVM's list no longer has. The JVM's own events where
 * the profiler runs inside it; none for another process.
 */
public interface ThreadLifeNames {

    /** What a thread told of itself. */
    interface Listener {
        /**
         * Thread {@code tid} was named {@code name} as it started ({@code ended} false) or as it ended: a name at
         * start may change before the thread runs its work; one at its end is the last it had.
         */
        void told(int tid, String name, boolean ended);

        /**
         * Thread {@code tid}, as it started, told its stack's bounds {@code [low, high)}: before {@link #told} of the
         * same start. Threads of a process other than the profiler's tell none.
         */
        default void stack(int tid, long low, long high) {
        }
    }

    /**
     * Hands every name told since the last call to {@code listener}, oldest first; from any thread, one at a time.
     *
     * @return how many were handed
     */
    int take(Listener listener);

    /** Names that did not fit while none was taken, counted: those threads are named by the JVM's list instead. */
    long dropped();

    /** Names told so far. */
    long told();

    /** Stops the telling; names not taken yet are forgotten. */
    void close();
}
