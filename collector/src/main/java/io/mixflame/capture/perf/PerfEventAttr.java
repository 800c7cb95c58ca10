package io.mixflame.capture.perf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code struct perf_event_attr} mixflame asks for: a software {@code cpu-clock} event on one thread, sampling
 * the thread's id, time, user registers and a copy of the top of its user stack (and the kernel callchain when
 * kernel sampling is allowed). Laid out as {@code PERF_ATTR_SIZE_VER7} (128 bytes). Times are on
 * {@code CLOCK_MONOTONIC} ({@code use_clockid}, Linux 4.1 on), the clock of {@link System#nanoTime()}, so that a
 * sample's time can be put on the wall clock.
 */
public final class PerfEventAttr {
    /** Size of the struct this builds. */
    public static final int SIZE = 128;
    static final int PERF_TYPE_SOFTWARE = 1;
    static final int PERF_COUNT_SW_CPU_CLOCK = 0;

    static final long SAMPLE_IP = 1L;
    static final long SAMPLE_TID = 1L << 1;
    static final long SAMPLE_TIME = 1L << 2;
    static final long SAMPLE_CALLCHAIN = 1L << 5;
    static final long SAMPLE_REGS_USER = 1L << 12;
    static final long SAMPLE_STACK_USER = 1L << 13;

    private static final int FLAG_DISABLED = 0;
    private static final int FLAG_INHERIT = 1;
    private static final int FLAG_COMM = 9;
    private static final int FLAG_INHERIT_THREAD = 35;
    private static final int FLAG_EXCLUDE_KERNEL = 5;
    private static final int FLAG_EXCLUDE_HV = 6;
    private static final int FLAG_EXCLUDE_CALLCHAIN_USER = 22;
    private static final int FLAG_USE_CLOCKID = 25;
    private static final int FLAG_SAMPLE_ID_ALL = 18;
    private static final int FLAG_CONTEXT_SWITCH = 26;
    private static final int CLOCK_MONOTONIC = 1;

    private PerfEventAttr() {
    }

    /**
     * The attribute bytes.
     *
     * @param periodNanos     the sampling period
     * @param registerMask    {@code sample_regs_user}
     * @param stackBytes      {@code sample_stack_user} (a multiple of 8)
     * @param kernel          whether to sample in the kernel too (then with the kernel callchain)
     * @param wakeupEvents    samples between wake-ups ({@code wakeup_events}); the sampler polls, so this only matters
     *                        to anyone waiting on the descriptor
     */
    public static byte[] cpuClock(long periodNanos, long registerMask, int stackBytes, boolean kernel, int wakeupEvents) {
        return cpuClock(periodNanos, registerMask, stackBytes, kernel, wakeupEvents, false);
    }

    /**
     * The same, {@code inherit}ed when asked: every thread the event's thread starts from then on gets an event of
     * its own, counted on its own CPU time, whose samples go to the same ring buffer.
     */
    public static byte[] cpuClock(long periodNanos, long registerMask, int stackBytes, boolean kernel, int wakeupEvents,
                                  boolean inherit) {
        return cpuClock(periodNanos, registerMask, stackBytes, kernel, wakeupEvents, inherit, false);
    }

    /**
     * The same, with {@code PERF_RECORD_COMM} records when asked ({@code comm}): one each time a thread with the
     * event (or one inheriting it) is named, so that names reach the reader in order with the samples, even of a
     * thread that ends before anyone reads {@code /proc}.
     */
    public static byte[] cpuClock(long periodNanos, long registerMask, int stackBytes, boolean kernel, int wakeupEvents,
                                  boolean inherit, boolean comm) {
        return cpuClock(periodNanos, registerMask, stackBytes, kernel, wakeupEvents, inherit, comm, false);
    }

    /**
     * The same, inherited by threads only when {@code threadsOnly} ({@code inherit_thread}, Linux 5.13 and later; an
     * older kernel refuses the bit with EINVAL): a process the sampled one forks (a shell, {@code ldd}) is not
     * sampled as if it were one of its threads.
     */
    public static byte[] cpuClock(long periodNanos, long registerMask, int stackBytes, boolean kernel, int wakeupEvents,
                                  boolean inherit, boolean comm, boolean threadsOnly) {
        return cpuClock(periodNanos, registerMask, stackBytes, kernel, wakeupEvents, inherit, comm, threadsOnly, false);
    }

    /**
     * The same, with {@code PERF_RECORD_SWITCH} records when {@code switches} ({@code context_switch}, and
     * {@code sample_id_all} so that each record carries its thread's id after the record's own fields): one each time
     * a thread with the event is switched onto or off a CPU, which says which threads ran without reading anything
     * per thread.
     */
    public static byte[] cpuClock(long periodNanos, long registerMask, int stackBytes, boolean kernel, int wakeupEvents,
                                  boolean inherit, boolean comm, boolean threadsOnly, boolean switches) {
        long sampleType = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_REGS_USER | SAMPLE_STACK_USER;
        long flags = (1L << FLAG_DISABLED) | (1L << FLAG_EXCLUDE_HV) | (1L << FLAG_USE_CLOCKID);
        if (inherit) {
            flags |= 1L << FLAG_INHERIT;
        }
        if (comm) {
            flags |= 1L << FLAG_COMM;
        }
        if (inherit && threadsOnly) {
            flags |= 1L << FLAG_INHERIT_THREAD;
        }
        if (switches) {
            flags |= (1L << FLAG_CONTEXT_SWITCH) | (1L << FLAG_SAMPLE_ID_ALL);
        }
        if (kernel) {
            sampleType |= SAMPLE_CALLCHAIN;
            flags |= 1L << FLAG_EXCLUDE_CALLCHAIN_USER;
        } else {
            flags |= 1L << FLAG_EXCLUDE_KERNEL;
        }
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.nativeOrder());
        b.putInt(0, PERF_TYPE_SOFTWARE);
        b.putInt(4, SIZE);
        b.putLong(8, PERF_COUNT_SW_CPU_CLOCK);
        b.putLong(16, periodNanos);
        b.putLong(24, sampleType);
        b.putLong(40, flags);
        b.putInt(48, wakeupEvents);
        b.putLong(80, registerMask);
        b.putInt(88, stackBytes);
        b.putInt(92, CLOCK_MONOTONIC);
        return b.array();
    }

    /** The sample_type the bytes ask for. */
    static long sampleType(byte[] attr) {
        return ByteBuffer.wrap(attr).order(ByteOrder.nativeOrder()).getLong(24);
    }
}
