package io.mixflame.agent.push;

import io.mixflame.profile.Profile;
import io.mixflame.report.ReportOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Pushes each period's profiles to the targets of {@link PushOptions}, each target from a daemon thread of its own
 * ({@value #THREAD_NAME}{@code -otlp}, {@value #THREAD_NAME}{@code -pyroscope}), started at the first period: the
 * profiler's timer only hands a period over ({@link #offer}), and neither encoding nor the network ever runs on it or
 * on the application's threads. A thread per target, since a target that never answers holds its thread for its
 * timeouts ({@value #CONNECT_TIMEOUT_MILLIS} ms to connect, {@value #READ_TIMEOUT_MILLIS} ms to answer), and must not
 * hold back the other's periods.
 *
 * <p>Each target keeps up to {@value #QUEUE_PERIODS} periods and drops the oldest beyond. A push that gets no
 * answer, or 408, 429 or 5xx, is retried after {@value #FIRST_BACKOFF_MILLIS} ms, doubling up to
 * {@value #MAX_BACKOFF_MILLIS} ms (jittered), or after what {@code Retry-After} asks (at most
 * {@value #MAX_RETRY_AFTER_MILLIS} ms); any other status drops the period, since it would fail the same way again.
 * An outage is logged once when it begins (WARN) and once when it ends (INFO, with the periods dropped meanwhile).
 *
 * <p>At exit and at {@code stop}, {@link #finish} hands over the last period and waits at most
 * {@value #EXIT_WAIT_MILLIS} ms in all for what is left to go out, without retries; the threads, daemons, never
 * keep the JVM alive.
 */
public final class ProfilePusher {
    /** The start of the push threads' names. */
    public static final String THREAD_NAME = "mixflame-push";
    /** The longest wait for a connection. */
    public static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    /** The longest wait for an answer. */
    public static final int READ_TIMEOUT_MILLIS = 5_000;
    /** The first wait before a retry. */
    public static final long FIRST_BACKOFF_MILLIS = 1_000;
    /** The longest wait before a retry that no {@code Retry-After} asks for. */
    public static final long MAX_BACKOFF_MILLIS = 60_000;
    /** The longest wait a {@code Retry-After} header gets. */
    public static final long MAX_RETRY_AFTER_MILLIS = 300_000;
    /** How long the exit or a {@code stop} waits for the last period to go out, in all. */
    public static final long EXIT_WAIT_MILLIS = 2_000;
    /** How many periods each target keeps while it cannot take them. */
    public static final int QUEUE_PERIODS = 4;

    private final List<PushChannel> channels;
    private final PushAuth auth;
    private final PushHeaders headers;
    private final ReportOptions shaping;
    private final PushTiming timing;
    private final PushCounters counters = new PushCounters();
    /** Guards the channels and the fields below; the push threads wait on it for work. */
    private final Object lock = new Object();
    private boolean closing;
    private long deadlineNanos;
    private boolean delivered = true;

    /**
     * A pusher to the targets of {@code options}, which starts no thread and opens no connection before the first
     * period.
     *
     * @param shaping how the profiles are shaped before they are encoded (the filter and frame style of the options)
     */
    public ProfilePusher(PushOptions options, ReportOptions shaping) {
        this(targets(options), options.auth(), options.headers(), shaping, PushTiming.DEFAULT);
    }

    ProfilePusher(List<PushTarget> targets, PushAuth auth, ReportOptions shaping, PushTiming timing) {
        this(targets, auth, PushHeaders.NONE, shaping, timing);
    }

    ProfilePusher(List<PushTarget> targets, PushAuth auth, PushHeaders headers, ReportOptions shaping,
                  PushTiming timing) {
        List<PushChannel> list = new ArrayList<>(targets.size());
        for (PushTarget target : targets) {
            list.add(new PushChannel(target, timing));
        }
        this.channels = List.copyOf(list);
        this.auth = auth;
        this.headers = headers;
        this.shaping = shaping;
        this.timing = timing;
    }

    private static List<PushTarget> targets(PushOptions options) {
        List<PushTarget> targets = new ArrayList<>(2);
        if (options.otlp() != null) {
            targets.add(OtlpPush.of(options.otlp(), options.resource()));
        }
        if (options.pyroscope() != null) {
            targets.add(PyroscopePush.of(options.pyroscope(), options.serviceName(), options.tags()));
        }
        return targets;
    }

    /** What was pushed, failed and dropped so far. */
    public PushCounters counters() {
        return counters;
    }

    /**
     * Hands over one period's profiles (one per event) and returns at once; the push threads encode and send them.
     * Ignored after {@link #finish}.
     */
    public void offer(List<Profile> profiles) {
        synchronized (lock) {
            if (closing) {
                return;
            }
            enqueue(profiles);
            startThreads();
            lock.notifyAll();
        }
    }

    /**
     * Hands over the last period ({@code last}, or null when there is none) and waits at most
     * {@value #EXIT_WAIT_MILLIS} ms for everything still waiting to go out, each push tried once; what is left then
     * is dropped. Later calls wait for the same end, never past its deadline.
     *
     * @return whether every period was pushed
     */
    public boolean finish(List<Profile> last) {
        synchronized (lock) {
            if (!closing) {
                if (last != null) {
                    enqueue(last);
                }
                closing = true;
                deadlineNanos = System.nanoTime() + timing.exitWaitMillis() * 1_000_000L;
                for (PushChannel c : channels) {
                    c.closing();
                }
                startThreads();
                lock.notifyAll();
            }
            long left;
            while (!allEnded() && (left = deadlineNanos - System.nanoTime()) > 0) {
                try {
                    lock.wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            for (PushChannel c : channels) {
                if (!c.ended()) {
                    // Its thread is still waiting for an answer: say so now, the JVM may be gone by its timeout.
                    delivered = false;
                    c.unfinishedAtExit();
                }
            }
            return allEnded() && delivered;
        }
    }

    /** Whether a push thread has been started (at the first period). */
    boolean started() {
        synchronized (lock) {
            for (PushChannel c : channels) {
                if (c.thread() != null) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Waits at most {@code millis} for the push threads to end after {@link #finish}; whether they have. */
    boolean awaitEnd(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (PushChannel c : channels) {
            Thread t;
            synchronized (lock) {
                t = c.thread();
            }
            if (t != null) {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
                if (t.isAlive()) {
                    return false;
                }
            }
        }
        return true;
    }

    private void enqueue(List<Profile> profiles) {
        PushPeriod period = new PushPeriod(profiles);
        for (PushChannel c : channels) {
            c.add(period, counters);
        }
    }

    private void startThreads() {
        for (PushChannel c : channels) {
            if (c.thread() != null || c.ended()) {
                continue;
            }
            // An anonymous class, not a lambda: nothing spun by the JVM inside the service for a thread of ours.
            c.start(new Runnable() {
                @Override
                public void run() {
                    work(c);
                }
            }, THREAD_NAME + "-" + c.target().kind());
        }
    }

    private boolean allEnded() {
        for (PushChannel c : channels) {
            if (!c.ended()) {
                return false;
            }
        }
        return true;
    }

    /** A target's push thread: sends its periods as they become due, until {@link #finish} ends it. */
    private void work(PushChannel channel) {
        while (true) {
            PendingPeriod pending;
            int connectMillis;
            int readMillis;
            synchronized (lock) {
                long now = System.nanoTime();
                if (closing && channel.doneAtExit(now, deadlineNanos)) {
                    if (channel.giveUp(counters)) {
                        delivered = false;
                    }
                    channel.end();
                    lock.notifyAll();
                    return;
                }
                long wait = channel.idle() ? 0 : closing ? -1 : channel.waitNanos(now);
                if (channel.idle() || wait > 0) {
                    try {
                        // 0: for ever, until a period or the exit arrives.
                        lock.wait(channel.idle() ? 0 : wait / 1_000_000L + 1);
                    } catch (InterruptedException e) {
                        // Nobody but this class interrupts its threads; taken as the end.
                        closing = true;
                        deadlineNanos = now;
                    }
                    continue;
                }
                pending = channel.begin();
                long budget = closing ? Math.max(1, (deadlineNanos - now) / 1_000_000L) : Long.MAX_VALUE;
                connectMillis = (int) Math.min(timing.connectMillis(), budget);
                readMillis = (int) Math.min(timing.readMillis(), budget);
            }
            PushFailure failure = send(channel.target(), pending, connectMillis, readMillis);
            synchronized (lock) {
                channel.settle(pending, failure, closing, System.nanoTime(), counters, auth);
            }
        }
    }

    /**
     * Encodes the period where not done yet and sends its requests from the first not yet accepted; null when all
     * went through.
     */
    private PushFailure send(PushTarget target, PendingPeriod pending, int connectMillis, int readMillis) {
        try {
            if (pending.requests == null) {
                pending.requests = target.requests(pending.period.shaped(shaping));
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            counters.countFailure();
            return new PushFailure("the profiles could not be encoded: " + e, false, -1);
        }
        String authorization = auth.header();
        while (pending.accepted < pending.requests.size()) {
            PushRequest request = pending.requests.get(pending.accepted);
            PushResponse response;
            try {
                response = PushHttp.post(request, authorization, headers, connectMillis, readMillis);
            } catch (IOException | RuntimeException e) {
                counters.countFailure();
                String problem = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                return new PushFailure(problem, true, -1);
            }
            if (!response.accepted()) {
                counters.countFailure();
                long retryAfter = RetryAfter.millis(response.retryAfter(), System.currentTimeMillis(),
                        timing.maxRetryAfterMillis());
                return new PushFailure(response.describe(), response.retryable(), retryAfter);
            }
            counters.countSent(request.body().length);
            pending.accepted++;
        }
        return null;
    }
}
