package io.mixflame.cache;

import java.util.function.LongSupplier;

/**
 * {@link System#nanoTime()} as the clock that caches and reload timers are given. One class instead of a method
 * reference to it at every use: each method reference is a class the JVM spins in the service's start-up.
 */
public final class MonotonicClock implements LongSupplier {
    /** The one instance. */
    public static final MonotonicClock NANOS = new MonotonicClock();

    private MonotonicClock() {
    }

    @Override
    public long getAsLong() {
        return System.nanoTime();
    }
}
