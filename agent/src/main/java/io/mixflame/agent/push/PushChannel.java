package io.mixflame.agent.push;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One target's periods, retry state and push thread, so that a target that fails, or hangs until its timeouts, never
 * holds back another's periods: the retry state machine (backing off, an outage said once when it begins and once
 * when it ends, periods dropped and counted) is this class's. Guarded by the {@link ProfilePusher}'s lock.
 */
final class PushChannel {
    private static final Logger LOG = LoggerFactory.getLogger(ProfilePusher.class);

    private final PushTarget target;
    private final PushTiming timing;
    private final PushQueue<PendingPeriod> queue;
    private final Backoff backoff;
    /** The period being sent, which a full queue does not drop; null when none. */
    private PendingPeriod inFlight;
    /** When the next attempt may start ({@link System#nanoTime()}). */
    private long nextAttemptNanos;
    /** Whether the target is in an outage: its first failure was logged, the others are not. */
    private boolean failing;
    /** Periods dropped since the outage began, for the line that says it is over. */
    private long droppedInOutage;
    /** Failed during the exit's wait: not tried again. */
    private boolean gaveUp;
    /** The target's push thread, started at the first period; null before. */
    private Thread thread;
    /** Whether the push thread has ended, after {@link ProfilePusher#finish}. */
    private boolean ended;

    PushChannel(PushTarget target, PushTiming timing) {
        this.target = target;
        this.timing = timing;
        this.queue = new PushQueue<>(timing.queuePeriods());
        this.backoff = new Backoff(timing.firstBackoffMillis(), timing.maxBackoffMillis());
    }

    PushTarget target() {
        return target;
    }

    /** Queues a period; the oldest waiting one (never the one in flight) is dropped and counted when full. */
    void add(PushPeriod period, PushCounters counters) {
        if (queue.add(new PendingPeriod(period), inFlight) != null) {
            counters.countDropped(1);
            droppedInOutage++;
        }
    }

    /** Starts the push thread running {@code body}, once. */
    void start(Runnable body, String name) {
        if (thread != null || ended) {
            return;
        }
        thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The push thread, or null before the first period. */
    Thread thread() {
        return thread;
    }

    /** At the exit: a channel that never started and has nothing to send is ended already. */
    void closing() {
        ended = thread == null && queue.isEmpty();
    }

    boolean ended() {
        return ended;
    }

    /** The push thread is ending. */
    void end() {
        ended = true;
    }

    /** Whether the thread should end now that the exit is waiting: its time is up, nothing is left, or it gave up. */
    boolean doneAtExit(long now, long deadlineNanos) {
        return now - deadlineNanos >= 0 || queue.isEmpty() || gaveUp;
    }

    /** Nothing waits to be sent. */
    boolean idle() {
        return queue.isEmpty();
    }

    /** How long until the next attempt may start; 0 or less when it may now. */
    long waitNanos(long now) {
        return nextAttemptNanos - now;
    }

    /** The period to send now, in flight until {@link #settle}. */
    PendingPeriod begin() {
        inFlight = queue.peek();
        return inFlight;
    }

    /**
     * Takes the outcome of sending {@code pending} (null {@code failure}: it went through): the next attempt's time,
     * the outage's start or end (logged once each), and the period kept, dropped or given up on.
     */
    void settle(PendingPeriod pending, PushFailure failure, boolean closing, long now, PushCounters counters,
                PushAuth auth) {
        inFlight = null;
        if (failure == null) {
            queue.remove(pending);
            if (failing) {
                LOG.info("pushing profiles to {} works again; {} periods were dropped meanwhile", target.url(),
                        droppedInOutage);
            }
            failing = false;
            backoff.reset();
            nextAttemptNanos = now;
            return;
        }
        String next;
        if (!failure.retryable()) {
            next = "that period is dropped (retrying would fail the same way)";
        } else if (closing) {
            next = "not retried at exit";
        } else {
            next = "retrying, the last " + timing.queuePeriods() + " periods are kept";
        }
        boolean first = !failing;
        if (first) {
            failing = true;
            droppedInOutage = 0;
        }
        String line = "pushing profiles to " + target.url() + " failed: " + auth.redact(failure.problem()) + "; "
                + next;
        if (first) {
            LOG.warn(line);
        } else {
            LOG.debug(line);
        }
        if (!failure.retryable()) {
            if (queue.remove(pending)) {
                counters.countDropped(1);
                droppedInOutage++;
            }
            nextAttemptNanos = now;
        } else if (closing) {
            gaveUp = true;
        } else {
            long wait = failure.retryAfterMillis() >= 0 ? failure.retryAfterMillis() : backoff.nextMillis();
            nextAttemptNanos = now + wait * 1_000_000L;
        }
    }

    /**
     * At the end: what is left is dropped and counted, and said unless the outage has been said already; whether
     * anything was.
     */
    boolean giveUp(PushCounters counters) {
        int left = queue.size();
        if (left == 0) {
            return false;
        }
        counters.countDropped(left);
        queue.clear();
        if (!failing) {
            failing = true;
            LOG.warn("{} periods were not pushed to {} within the {} ms the exit waits", left, target.url(),
                    timing.exitWaitMillis());
        }
        return true;
    }

    /** The exit's wait is over and the thread still waits for an answer: said now, the JVM may be gone by then. */
    void unfinishedAtExit() {
        if (!failing) {
            failing = true;
            LOG.warn("pushing profiles to {} did not finish within the {} ms the exit waits; {} periods are not pushed",
                    target.url(), timing.exitWaitMillis(), queue.size());
        }
    }
}
