package io.mixflame.engine.perf;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded queue between exactly one producer thread and one consumer thread, without locks: the perf engine's
 * sampler hands captures to its walker through one and gets them back through another. Not an
 * {@code ArrayBlockingQueue}: its lock, taken twice per sample, put the JDK's lock and queue code among what the
 * service's JIT compiled for the profiler, and neither side ever blocks on the queue.
 *
 * @param <T> what is handed over
 */
final class HandOffRing<T> {
    private final Object[] slots;
    private final int mask;
    /** The next slot the consumer takes; written by the consumer only. */
    private final AtomicLong head = new AtomicLong();
    /** The next slot the producer fills; written by the producer only. */
    private final AtomicLong tail = new AtomicLong();

    /** A ring of at least {@code capacity} slots (the next power of two). */
    HandOffRing(int capacity) {
        if (capacity <= 0 || capacity > 1 << 20) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        int size = Integer.highestOneBit(capacity);
        if (size < capacity) {
            size <<= 1;
        }
        slots = new Object[size];
        mask = size - 1;
    }

    /** Adds {@code item} unless the ring is full; from the producer thread only. */
    boolean offer(T item) {
        long t = tail.get();
        if (t - head.get() == slots.length) {
            return false;
        }
        slots[(int) t & mask] = item;
        // Ordered after the slot's write: the consumer that sees the new tail sees the item.
        tail.lazySet(t + 1);
        return true;
    }

    /** The oldest item, or null when there is none; from the consumer thread only. */
    @SuppressWarnings("unchecked")
    T poll() {
        long h = head.get();
        if (h == tail.get()) {
            return null;
        }
        int i = (int) h & mask;
        T item = (T) slots[i];
        slots[i] = null;
        head.lazySet(h + 1);
        return item;
    }

    /** Whether the ring holds nothing at this moment. */
    boolean isEmpty() {
        return head.get() == tail.get();
    }

    /**
     * Lets go of every item, from any thread, once the engine is giving up (its threads stop at their next check):
     * an item a racing {@link #poll} still takes is dropped by its taker.
     */
    void clear() {
        for (int i = 0; i < slots.length; i++) {
            slots[i] = null;
        }
    }
}
