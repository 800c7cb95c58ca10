package io.mixflame.profile;

import java.util.Arrays;

/**
 * When a profile's samples were taken, per stack, in bounded memory: samples of one stack within one time bucket
 * are counted together, and when the distinct (stack, bucket) pairs reach {@link #MAX_ENTRIES}, buckets double in
 * width and merge. Buckets start at one millisecond; a long recording with many stacks ends with coarser ones, and
 * {@link SampleTimes#resolutionNanos()} says how coarse.
 *
 * <p>An open-addressing table of {@code bucket << 24 | stack} keys to counts: adding allocates nothing until the
 * table grows. Samples of a stack index past 2<sup>24</sup>, and every sample once one bucket spans the recording
 * and the table is still full (more distinct stacks than the bound), are not recorded here (the profile still
 * counts them, without a time). An entry's time is its bucket's start, but never before the first sample seen nor
 * after the last. Not thread-safe: {@link ProfileAccumulator} guards it.
 */
final class SampleTimeline {

    /** The most (stack, bucket) pairs held: at most 8 MiB of table. */
    static final int MAX_ENTRIES = 1 << 18;
    private static final int STACK_BITS = 24;
    private static final long STACK_MASK = (1L << STACK_BITS) - 1;
    private static final long BASE_RESOLUTION_NANOS = 1_000_000L;
    private static final int MIN_SLOTS = 1 << 10;

    /**
     * How long before the first sample's time the buckets start: samples reach a timeline out of order (a file's
     * events, several threads' ring buffers drained in turn), and one older than the origin would be clamped to it.
     */
    static final long ORIGIN_SLACK_NANOS = 600_000_000_000L;

    private long originEpochNanos;
    private long earliest = Long.MAX_VALUE;
    private long latest = Long.MIN_VALUE;
    private final int maxEntries;
    private int shift;
    /** Key + 1, so that 0 marks a free slot. */
    private long[] keys = new long[MIN_SLOTS];
    private long[] counts = new long[MIN_SLOTS];
    private int size;
    /** Every pair is in one bucket and the table is still full (too many distinct stacks): nothing more is kept. */
    private boolean full;

    /** A timeline whose buckets count from a while before its first sample. */
    SampleTimeline() {
        this(MAX_ENTRIES);
    }

    SampleTimeline(int maxEntries) {
        this.maxEntries = Math.max(2, maxEntries);
    }

    /** Counts {@code samples} of stack {@code stack} at {@code epochNanos}. */
    void add(int stack, long epochNanos, long samples) {
        if (stack < 0 || stack > STACK_MASK || samples <= 0 || full) {
            return;
        }
        if (earliest == Long.MAX_VALUE) {
            originEpochNanos = epochNanos - ORIGIN_SLACK_NANOS;
        }
        earliest = Math.min(earliest, epochNanos);
        latest = Math.max(latest, epochNanos);
        long bucket = Math.max(0, epochNanos - originEpochNanos) / BASE_RESOLUTION_NANOS >> shift;
        put(bucket << STACK_BITS | stack, samples);
        if (size >= maxEntries) {
            makeRoom();
        }
    }

    private void put(long key, long samples) {
        int mask = keys.length - 1;
        for (int slot = slot(key, mask); ; slot = (slot + 1) & mask) {
            if (keys[slot] == 0) {
                keys[slot] = key + 1;
                counts[slot] = samples;
                if (++size > keys.length / 2) {
                    rehash(keys.length * 2);
                }
                return;
            }
            if (keys[slot] == key + 1) {
                counts[slot] = Counts.add(counts[slot], samples);
                return;
            }
        }
    }

    /**
     * Widens buckets until a quarter of the table is free; once every pair is in one bucket (more stacks than the
     * bound holds), stops recording.
     */
    private void makeRoom() {
        while (size >= maxEntries * 3L / 4 && !full) {
            coarsen();
            full = oneBucket() || shift >= 40;
        }
    }

    private boolean oneBucket() {
        long first = -1;
        for (long k : keys) {
            if (k != 0) {
                long bucket = (k - 1) >>> STACK_BITS;
                if (first < 0) {
                    first = bucket;
                } else if (bucket != first) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Doubles the buckets' width: pairs that now share a bucket merge. */
    private void coarsen() {
        shift++;
        long[] oldKeys = keys;
        long[] oldCounts = counts;
        keys = new long[oldKeys.length];
        counts = new long[oldKeys.length];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                long key = oldKeys[i] - 1;
                put((key >>> STACK_BITS >> 1) << STACK_BITS | (key & STACK_MASK), oldCounts[i]);
            }
        }
    }

    private void rehash(int slots) {
        long[] oldKeys = keys;
        long[] oldCounts = counts;
        keys = new long[slots];
        counts = new long[slots];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                put(oldKeys[i] - 1, oldCounts[i]);
            }
        }
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** The pairs so far, in time order (then by stack). */
    SampleTimes freeze() {
        long[] sorted = new long[size];
        long[] sortedCounts = new long[size];
        int n = 0;
        for (long k : keys) {
            if (k != 0) {
                sorted[n++] = k - 1;
            }
        }
        Arrays.sort(sorted);
        long resolution = BASE_RESOLUTION_NANOS << shift;
        long[] times = new long[size];
        int[] stacks = new int[size];
        int mask = keys.length - 1;
        for (int i = 0; i < size; i++) {
            long key = sorted[i];
            long start = originEpochNanos + (key >>> STACK_BITS) * resolution;
            times[i] = Math.min(Math.max(start, earliest), latest);
            stacks[i] = (int) (key & STACK_MASK);
            int slot = slot(key, mask);
            while (keys[slot] != key + 1) {
                slot = (slot + 1) & mask;
            }
            sortedCounts[i] = counts[slot];
        }
        return new SampleTimes(times, stacks, sortedCounts, resolution);
    }

    /** Distinct (stack, bucket) pairs held. */
    int size() {
        return size;
    }
}
