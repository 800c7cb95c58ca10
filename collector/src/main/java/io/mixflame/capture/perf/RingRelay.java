package io.mixflame.capture.perf;

import io.mixflame.capture.nativecode.MixflameNativeLibrary;

/**
 * The perf rings' relay ({@code src/main/native/ring_relay.c}): a native thread, outside the JVM, that moves what the
 * kernel writes into the per-CPU rings on to larger rings of ordinary memory every few milliseconds, which the
 * sampler reads instead. The sampler is a Java thread: it stops at every safepoint, which the JVM may take seconds to
 * reach with hundreds of runnable threads, and it gets a core only its share of the time; the kernel's rings are
 * locked memory, which the user's allowance keeps small. The relay thread does a copy of what is new at each wake-up,
 * so the scheduler runs it soon after; its rings hold {@link #HOLD_NANOS} of samples. A relay ring that fills takes no
 * more, and the kernel's ring then counts its losses as without the relay. Started once the rings are mapped, stopped
 * before they are unmapped; its calls are never per sample.
 */
final class RingRelay {
    /** How long the relay's rings hold samples no Java thread has read. */
    static final long HOLD_NANOS = 8_000_000_000L;
    /** The most one relay ring takes, and all of them together. */
    static final long MOST_BYTES_EACH = 32L << 20;
    static final long MOST_BYTES = 256L << 20;
    /** How often the relay thread moves what is new. */
    static final long PERIOD_NANOS = 5_000_000L;
    /**
     * How long a reader that needs the records up to now waits for the relay's pass it asked for: on a machine with
     * hundreds of runnable threads the relay thread may get a core tens of milliseconds after it is woken, and the
     * reader then reads what was moved.
     */
    static final long FLUSH_WAIT_NANOS = 20_000_000L;

    private static volatile String bindFailure;
    private static volatile boolean bound;

    private final long handle;
    private final long ringBytes;
    private boolean stopped;

    private RingRelay(long handle, long ringBytes) {
        this.handle = handle;
        this.ringBytes = ringBytes;
    }

    /**
     * Bytes of each relay ring for {@code cpus} rings of {@code sourceBytes} data each, sampled every {@code periodNanos}
     * with records of {@code recordBytes}: a power of two that holds {@link #HOLD_NANOS}, at least the kernel's ring,
     * within the bounds.
     */
    static long ringBytes(int cpus, long sourceBytes, long periodNanos, long recordBytes) {
        long wanted = HOLD_NANOS / Math.max(1, periodNanos) * Math.max(1, recordBytes);
        long most = Long.highestOneBit(Math.max(PerfCaptureSettings.PAGE_BYTES,
                Math.min(MOST_BYTES_EACH, MOST_BYTES / Math.max(1, cpus))));
        long power = Long.highestOneBit(Math.max(wanted, PerfCaptureSettings.PAGE_BYTES));
        if (power < wanted) {
            power *= 2;
        }
        return Math.max(Math.min(power, most), sourceBytes);
    }

    /**
     * Starts a relay of the rings mapped at {@code addresses} ({@code sourceBytes[i]} data bytes each) onto rings of
     * {@code ringBytes}.
     *
     * @return the relay, or null where the native library cannot be had or the relay cannot start; {@code why[0]}
     *         then says why
     */
    static RingRelay start(long[] addresses, long[] sourceBytes, long ringBytes, String[] why) {
        String failure = bind();
        if (failure != null) {
            why[0] = failure;
            return null;
        }
        long handle = Calls.mixflame_relay_start(addresses.length, addresses, sourceBytes,
                PerfCaptureSettings.PAGE_BYTES, ringBytes, PERIOD_NANOS);
        if (handle < 0 && handle > -4096) {
            why[0] = "the relay thread could not start (errno " + -handle + ")";
            return null;
        }
        return new RingRelay(handle, ringBytes);
    }

    private static synchronized String bind() {
        if (bound) {
            return null;
        }
        if (bindFailure == null) {
            bindFailure = MixflameNativeLibrary.bind(Calls.class);
            bound = bindFailure == null;
        }
        return bindFailure;
    }

    /** The address of relay ring {@code i}: a metadata page in perf's layout, then its data. */
    long ring(int i) {
        return Calls.mixflame_relay_ring(handle, i);
    }

    /** Data bytes of each relay ring. */
    long ringBytes() {
        return ringBytes;
    }

    /**
     * Asks the relay thread to move what is new now rather than at its next wake-up, and waits for it at most
     * {@code waitNanos} (0: not at all): the caller never moves records itself, so that a Java thread preempted
     * mid-move cannot hold a ring the relay thread must empty.
     *
     * @return whether the relay moved what was there when asked within the wait
     */
    boolean flush(long waitNanos) {
        return !stopped && Calls.mixflame_relay_flush(handle, waitNanos) == 1;
    }

    /** Records moved so far. */
    long moved() {
        return stopped ? 0 : Calls.mixflame_relay_count(handle, 0);
    }

    /** How many times a relay ring was found full (the records left in the kernel's ring). */
    long full() {
        return stopped ? 0 : Calls.mixflame_relay_count(handle, 1);
    }

    /** The longest time between the starts of two of the relay's passes, in nanoseconds: how long it had no core. */
    long longestPauseNanos() {
        return stopped ? 0 : Calls.mixflame_relay_count(handle, 2);
    }

    /** Bytes moved so far. */
    long bytes() {
        return stopped ? 0 : Calls.mixflame_relay_count(handle, 4);
    }

    /** The relay thread's CPU time so far, in nanoseconds. */
    long cpuNanos() {
        return stopped ? 0 : Calls.mixflame_relay_count(handle, 5);
    }

    /**
     * When the relay's last pass that moved every record began ({@code CLOCK_MONOTONIC}, the clock of
     * {@link System#nanoTime()}; far in the past before one): what the kernel wrote before then is in the relay's
     * rings.
     */
    long passedAt() {
        long at = stopped ? 0 : Calls.mixflame_relay_count(handle, 6);
        return at == 0 ? Long.MIN_VALUE / 2 : at;
    }

    /** The most bytes a kernel ring held at the start of one of the relay's passes. */
    long mostWaitingBytes() {
        return stopped ? 0 : Calls.mixflame_relay_count(handle, 3);
    }

    /** Stops the thread, once it moved what it could; the relay rings stay readable until {@link #free}. */
    void stop() {
        Calls.mixflame_relay_stop(handle);
    }

    /** Unmaps the relay rings; after {@link #stop}. */
    void free() {
        if (!stopped) {
            stopped = true;
            Calls.mixflame_relay_free(handle);
        }
    }

    /** The relay's calls, as {@code ring_relay.c} declares them. */
    static final class Calls {
        private Calls() {
        }

        static native long mixflame_relay_start(int count, long[] sources, long[] sourceSizes, long page,
                                                long targetSize, long periodNanos);

        static native long mixflame_relay_ring(long handle, int i);

        static native long mixflame_relay_count(long handle, int which);

        static native int mixflame_relay_flush(long handle, long waitNanos);

        static native int mixflame_relay_stop(long handle);

        static native int mixflame_relay_free(long handle);
    }
}
