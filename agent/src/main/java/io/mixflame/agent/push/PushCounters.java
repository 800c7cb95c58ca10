package io.mixflame.agent.push;

import java.util.concurrent.atomic.AtomicLong;

/** What a {@link ProfilePusher} has done so far, for the status command, the cost notes and benchmarks. */
public final class PushCounters {
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    /** Requests a backend accepted (Pyroscope takes one per event of a period, OTLP one per period). */
    public long sent() {
        return sent.get();
    }

    /** Requests that failed: no answer, or an error status (retried or not). */
    public long failed() {
        return failed.get();
    }

    /** Periods given up for a target: its queue was full, it refused them, or the exit's wait ran out. */
    public long dropped() {
        return dropped.get();
    }

    /** Body bytes (compressed, as sent) of the accepted requests. */
    public long bytes() {
        return bytes.get();
    }

    /** One line: {@code pushes: 12 sent (345678 bytes), 1 failed, 0 periods dropped}. */
    public String describe() {
        return "pushes: " + sent() + " sent (" + bytes() + " bytes), " + failed() + " failed, " + dropped()
                + " periods dropped";
    }

    void countSent(long bodyBytes) {
        sent.incrementAndGet();
        bytes.addAndGet(bodyBytes);
    }

    void countFailure() {
        failed.incrementAndGet();
    }

    void countDropped(long periods) {
        dropped.addAndGet(periods);
    }
}
