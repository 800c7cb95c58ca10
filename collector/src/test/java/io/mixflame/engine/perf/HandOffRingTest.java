package io.mixflame.engine.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HandOffRingTest {
    @Test
    void holdsUpToItsCapacityInOrder() {
        HandOffRing<Integer> ring = new HandOffRing<>(3);
        assertTrue(ring.isEmpty());
        for (int i = 0; i < 4; i++) {
            assertTrue(ring.offer(i), "slot " + i + " of the 4 a capacity of 3 rounds up to");
        }
        assertFalse(ring.offer(4));
        for (int round = 0; round < 10; round++) {
            assertEquals(round, ring.poll());
            assertTrue(ring.offer(round + 4));
        }
        for (int i = 10; i < 14; i++) {
            assertEquals(i, ring.poll());
        }
        assertNull(ring.poll());
        assertTrue(ring.isEmpty());
    }

    @Test
    void clearLetsGoOfEveryItem() {
        HandOffRing<String> ring = new HandOffRing<>(8);
        ring.offer("a");
        ring.offer("b");
        ring.clear();
        assertNull(ring.poll());
        assertNull(ring.poll());
    }

    @Test
    void refusesCapacitiesItCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> new HandOffRing<>(0));
        assertThrows(IllegalArgumentException.class, () -> new HandOffRing<>((1 << 20) + 1));
    }

    /** One producer and one consumer on their own threads: every item arrives once, in order. */
    @Test
    void handsOverBetweenTwoThreadsWithoutLossOrReordering() throws Exception {
        HandOffRing<Long> ring = new HandOffRing<>(16);
        long count = 2_000_000;
        long[] received = new long[1];
        Throwable[] failure = new Throwable[1];
        Thread consumer = new Thread(() -> {
            try {
                long expected = 0;
                while (expected < count) {
                    Long item = ring.poll();
                    if (item == null) {
                        Thread.onSpinWait();
                        continue;
                    }
                    assertEquals(expected, item.longValue());
                    expected++;
                }
                received[0] = expected;
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        consumer.start();
        for (long i = 0; i < count; ) {
            if (ring.offer(i)) {
                i++;
            } else if (!consumer.isAlive()) {
                break;
            } else {
                Thread.onSpinWait();
            }
        }
        consumer.join();
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        assertEquals(count, received[0]);
    }
}
