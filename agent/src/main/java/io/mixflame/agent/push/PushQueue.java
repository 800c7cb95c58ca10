package io.mixflame.agent.push;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The periods waiting for one target, at most a few: when it is full, a new period drops the oldest, since a
 * backend that has been away for long wants the recent periods, and the service's memory must not grow with an
 * outage. Not thread-safe: its owner guards it.
 *
 * @param <T> a waiting period
 */
final class PushQueue<T> {
    private final ArrayDeque<T> items = new ArrayDeque<>();
    private final int capacity;

    PushQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Adds {@code item} last. When full, drops the oldest item other than {@code busy} (the one being sent, or null)
     * and returns it; else returns null.
     */
    T add(T item, T busy) {
        T dropped = null;
        if (items.size() >= capacity) {
            for (Iterator<T> it = items.iterator(); it.hasNext(); ) {
                T old = it.next();
                if (old != busy) {
                    it.remove();
                    dropped = old;
                    break;
                }
            }
        }
        items.addLast(item);
        return dropped;
    }

    /** The oldest item, or null. */
    T peek() {
        return items.peekFirst();
    }

    /** Removes {@code item} (the same object) if it is still here. */
    boolean remove(T item) {
        for (Iterator<T> it = items.iterator(); it.hasNext(); ) {
            if (it.next() == item) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    int size() {
        return items.size();
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    void clear() {
        items.clear();
    }
}
