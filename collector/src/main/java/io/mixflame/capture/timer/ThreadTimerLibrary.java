package io.mixflame.capture.timer;

import io.mixflame.capture.nativecode.MixflameNativeLibrary;

/**
 * The in-thread capture's calls into mixflame's native library ({@code src/main/native/thread_timer.c}, loaded by
 * {@link MixflameNativeLibrary}). Its calls run when the capture starts, stops, and a thread starts or ends, never
 * per sample.
 */
final class ThreadTimerLibrary {
    private static volatile boolean bound;
    private static volatile String failure;

    private ThreadTimerLibrary() {
    }

    /**
     * Binds the calls once.
     *
     * @return null when bound, else why they cannot be, in one line
     */
    static synchronized String load() {
        if (bound) {
            return null;
        }
        if (failure == null) {
            String why = MixflameNativeLibrary.bind(Calls.class);
            if (why == null) {
                bound = true;
                return null;
            }
            failure = "the in-thread timer cannot be used: " + why;
        }
        return failure;
    }

    /** The library's calls, as {@code thread_timer.c} declares them. */
    static final class Calls {
        private Calls() {
        }

        /** Maps the ring and installs the handler: the ring's address, or -errno. */
        static native long mixflame_timer_install(int signal, long capacity, long intervalNanos);

        /** Restores the handler that was there: 0, 1 when the ring was left mapped, or -errno. */
        static native int mixflame_timer_uninstall(int waitMillis);

        /** A timer on a thread's CPU clock, its signal naming its region slot (0: none): its id, or -errno. */
        static native int mixflame_timer_create(int tid, long intervalNanos, int stackBytes, int slot);

        /** Signals each of {@code n} threads whose timer is past its expiry unseen: how many were signalled. */
        static native int mixflame_timer_nudge_overdue(int[] timers, int[] tids, int[] stackBytes, int[] slots, int n);

        /** Deletes a timer: 0 or -errno. */
        static native int mixflame_timer_delete(int timer);
    }
}
