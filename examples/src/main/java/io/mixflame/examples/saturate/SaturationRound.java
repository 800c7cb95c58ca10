package io.mixflame.examples.saturate;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * One thread's share of the saturation workload: a round is the same mixed work every time, pure-Java arithmetic,
 * zlib's CRC32 of a native buffer through JNI, and churn of a HashMap (boxing and garbage for the collector), in
 * parts of about the same length. Not thread-safe: each busy thread has its own.
 */
final class SaturationRound {
    private static final int MATH_STEPS = 3_000;
    private static final int BUFFER_BYTES = 32 * 1024;
    private static final int MAP_KEYS = 4_096;
    private static final int MAP_STEPS = 300;

    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final Map<Integer, long[]> map = new HashMap<>();
    private final Random random;
    private long acc;

    SaturationRound(long seed) {
        random = new Random(seed);
        for (int i = 0; i < BUFFER_BYTES; i++) {
            buffer.put(i, (byte) random.nextInt());
        }
        acc = seed | 1;
    }

    /** Does one round. */
    void run() {
        acc = math(acc);
        acc += Zlib.crc32(acc & 0xffffffffL, buffer, BUFFER_BYTES);
        acc += churn();
    }

    /** What the rounds computed, so that the JIT cannot drop them. */
    long result() {
        return acc;
    }

    /** A xorshift chain and a square root per step: integer and floating-point work the JIT cannot shorten. */
    private static long math(long seed) {
        long x = seed | 1;
        double y = 0;
        for (int i = 0; i < MATH_STEPS; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            y += Math.sqrt(x & 0xffff);
        }
        return x + (long) y;
    }

    /** Puts and removes random keys in a map of bounded size: boxed keys and small arrays become garbage. */
    private long churn() {
        long sum = 0;
        for (int i = 0; i < MAP_STEPS; i++) {
            int key = random.nextInt(MAP_KEYS);
            long[] old = map.remove(key);
            if (old != null) {
                sum += old[0];
            } else {
                map.put(key, new long[] {i, acc});
            }
        }
        return sum;
    }
}
