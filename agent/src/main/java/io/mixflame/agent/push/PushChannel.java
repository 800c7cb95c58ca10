package io.mixflame.agent.push;

/**
 * One target's periods, retry state and push thread, so that a target that fails, or hangs until its timeouts, never
 * holds back another's periods. Guarded by the {@link ProfilePusher}'s lock.
 */
final class PushChannel {
    final PushTarget target;
    final PushQueue<PendingPeriod> queue;
    final Backoff backoff;
    /** The period being sent, which a full queue does not drop; null when none. */
    PendingPeriod inFlight;
    /** When the next attempt may start ({@link System#nanoTime()}). */
    long nextAttemptNanos;
    /** Whether the target is in an outage: its first failure was logged, the others are not. */
    boolean failing;
    /** Periods dropped since the outage began, for the line that says it is over. */
    long droppedInOutage;
    /** Failed during the exit's wait: not tried again. */
    boolean gaveUp;
    /** The target's push thread, started at the first period; null before. */
    Thread thread;
    /** Whether the push thread has ended, after {@link ProfilePusher#finish}. */
    boolean ended;

    PushChannel(PushTarget target, PushTiming timing) {
        this.target = target;
        this.queue = new PushQueue<>(timing.queuePeriods());
        this.backoff = new Backoff(timing.firstBackoffMillis(), timing.maxBackoffMillis());
    }
}
