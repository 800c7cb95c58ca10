package io.mixflame.agent.push;

/**
 * The timeouts, waits and bounds of pushing; {@link #DEFAULT} outside tests.
 *
 * @param connectMillis       the longest wait for a connection
 * @param readMillis          the longest wait for an answer
 * @param firstBackoffMillis  the first wait before a retry, doubled after each failure
 * @param maxBackoffMillis    the longest wait before a retry
 * @param maxRetryAfterMillis the longest wait a {@code Retry-After} header gets
 * @param exitWaitMillis      how long the exit (or a {@code stop}) waits for the last period to go out, in all
 * @param queuePeriods        how many periods each target keeps while it cannot take them
 */
record PushTiming(int connectMillis, int readMillis, long firstBackoffMillis, long maxBackoffMillis,
                  long maxRetryAfterMillis, long exitWaitMillis, int queuePeriods) {
    static final PushTiming DEFAULT = new PushTiming(ProfilePusher.CONNECT_TIMEOUT_MILLIS,
            ProfilePusher.READ_TIMEOUT_MILLIS, ProfilePusher.FIRST_BACKOFF_MILLIS, ProfilePusher.MAX_BACKOFF_MILLIS,
            ProfilePusher.MAX_RETRY_AFTER_MILLIS, ProfilePusher.EXIT_WAIT_MILLIS, ProfilePusher.QUEUE_PERIODS);
}
