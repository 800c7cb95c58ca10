package io.mixflame.agent.push;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The waits between retries: doubling from the first to the longest, each drawn between half of it and all of it so
 * that a fleet of services that lost their collector at once do not all come back at the same moment.
 */
final class Backoff {
    private final long firstMillis;
    private final long maxMillis;
    private long nextMillis;

    Backoff(long firstMillis, long maxMillis) {
        this.firstMillis = firstMillis;
        this.maxMillis = maxMillis;
        this.nextMillis = firstMillis;
    }

    /** The wait before the next retry; the one after is longer, up to the longest. */
    long nextMillis() {
        long wait = nextMillis;
        nextMillis = Math.min(maxMillis, nextMillis * 2);
        long half = wait / 2;
        return half + ThreadLocalRandom.current().nextLong(wait - half + 1);
    }

    /** After a success: the next failure waits the first wait again. */
    void reset() {
        nextMillis = firstMillis;
    }
}
