package io.mixflame.examples.service;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the service's worker threads measured while handling one endpoint: requests, time in the handler, and of
 * that the time asleep, waiting for the lock, and holding it. A wall-clock profile's shares can be checked
 * against these.
 */
final class EndpointTimes {
    private final LongAdder requests = new LongAdder();
    private final LongAdder handlerNanos = new LongAdder();
    private final LongAdder sleepingNanos = new LongAdder();
    private final LongAdder lockWaitNanos = new LongAdder();
    private final LongAdder lockHeldNanos = new LongAdder();

    void handled(long nanos) {
        requests.increment();
        handlerNanos.add(nanos);
    }

    void slept(long nanos) {
        sleepingNanos.add(nanos);
    }

    void waitedForLock(long nanos) {
        lockWaitNanos.add(nanos);
    }

    void heldLock(long nanos) {
        lockHeldNanos.add(nanos);
    }

    /** One line: {@code /lock: 120 requests, 900 ms in handlers, 500 ms waiting for the lock, 380 ms holding it}. */
    String describe(Endpoint endpoint) {
        StringBuilder b = new StringBuilder(endpoint.path()).append(": ").append(requests.sum()).append(" requests, ")
                .append(millis(handlerNanos)).append(" ms in handlers");
        if (sleepingNanos.sum() > 0) {
            b.append(", ").append(millis(sleepingNanos)).append(" ms sleeping");
        }
        if (endpoint == Endpoint.LOCK) {
            b.append(", ").append(millis(lockWaitNanos)).append(" ms waiting for the lock, ").append(millis(lockHeldNanos))
                    .append(" ms holding it");
        }
        return b.toString();
    }

    private static long millis(LongAdder nanos) {
        return nanos.sum() / 1_000_000;
    }
}
