package io.mixflame.capture.perf;

/** The constants of perf_events' system-call interface ({@code linux/perf_event.h}) the captures use, defined once. */
public final class PerfAbi {
    /** {@code perf_event_open}'s flag that closes the event's file on exec. */
    public static final long FLAG_FD_CLOEXEC = 1L << 3;
    /** {@code ioctl} that enables an event. */
    public static final long IOC_ENABLE = 0x2400;
    /** {@code ioctl} that sends an event's records to another event's ring. */
    public static final long IOC_SET_OUTPUT = 0x2405;

    private PerfAbi() {
    }
}
