package io.mixflame.engine.jfr;

import io.mixflame.engine.EpochClock;
import java.time.Instant;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Maps the times of a JFR stream's events onto the JVM's {@code nanoTime}, the clock label changes are stamped with:
 * from the latest {@link ClockMark} read (marked again at every flush, so that a wall clock stepped between chunks is
 * followed), or, before the first, from the wall clock's offset (milliseconds). Used by the stream's thread, marked by
 * any.
 */
final class EventClock {
    private final EpochClock fallback = new EpochClock();
    private volatile long offsetNanos;
    private volatile boolean marked;

    /** Commits a mark now. */
    static void mark() {
        ClockMark mark = new ClockMark();
        mark.begin();
        mark.nanoTime = System.nanoTime();
        mark.commit();
    }

    /** Takes the offset a mark read back says. */
    void read(RecordedEvent mark) {
        long start = epochNanos(mark.getStartTime());
        long end = epochNanos(mark.getEndTime());
        offsetNanos = start + (end - start) / 2 - mark.getLong("nanoTime");
        marked = true;
    }

    /** The JVM's {@code nanoTime} at an event's time. */
    long nanoTime(Instant at) {
        long epoch = epochNanos(at);
        return marked ? epoch - offsetNanos : epoch - (fallback.epochNanos(0));
    }

    static long epochNanos(Instant at) {
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }
}
