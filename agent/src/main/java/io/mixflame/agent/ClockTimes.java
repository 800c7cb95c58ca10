package io.mixflame.agent;

import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * async-profiler's clock-time form of {@code loop=} and {@code timeout=}: how long until a time of day comes next, by
 * the JVM's time zone. java.time is loaded only where the form is used.
 */
final class ClockTimes {
    private static final long SECOND = 1_000_000_000L;
    private static final long DAY = 86_400L * SECOND;

    private ClockTimes() {
    }

    /** Nanoseconds from now until the clock next reads {@code secondOfDay} (a full day when it reads it now). */
    static long nanosUntil(int secondOfDay) {
        return nanosUntil(secondOfDay, LocalDateTime.now());
    }

    /** As {@link #nanosUntil(int)}, from {@code now}. */
    static long nanosUntil(int secondOfDay, LocalDateTime now) {
        LocalDateTime at = now.toLocalDate().atTime(LocalTime.ofSecondOfDay(secondOfDay));
        if (!at.isAfter(now)) {
            at = at.plusDays(1);
        }
        long nanos = java.time.Duration.between(now, at).toNanos();
        return Math.min(Math.max(nanos, 1), DAY);
    }
}
