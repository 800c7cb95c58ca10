package io.mixflame.profile;

import java.util.Arrays;

/**
 * The distinct stacks of a profile, as sequences of frame ids, with their sample counts and weights, numbered in the
 * order they were first added. Not a {@link java.util.HashMap}: the accumulator looks a stack up for every sample,
 * inside the service's JVM, and a map of the JDK's would mix the profiler's key type into the type profile of the
 * service's own {@code HashMap} code, which C2 then compiles for both (found as a steady-state loss of throughput on
 * a {@code HashMap}-heavy workload). Open addressing over primitive arrays; a look-up of a known stack allocates
 * nothing. Not thread-safe: the accumulator holds its lock.
 */
final class StackCountTable {
    /** Each slot holds an entry's index + 1; 0 is empty. */
    private int[] slots = new int[256];
    private int[][] ids = new int[128][];
    private int[] hashes = new int[128];
    private long[] samples = new long[128];
    private long[] weights = new long[128];
    private int size;

    /** The hash of a stack's first {@code length} ids. */
    static int hash(int[] ids, int length) {
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + ids[i];
        }
        return h;
    }

    /** The entry of the stack made of {@code stack}'s first {@code length} ids, or -1. */
    int find(int[] stack, int length, int hash) {
        int mask = slots.length - 1;
        for (int i = spread(hash) & mask; ; i = (i + 1) & mask) {
            int e = slots[i] - 1;
            if (e < 0) {
                return -1;
            }
            if (hashes[e] == hash && Arrays.equals(ids[e], 0, ids[e].length, stack, 0, length)) {
                return e;
            }
        }
    }

    /** Adds the stack (not present) with no samples; returns its entry, numbered from 0 in the order of adding. */
    int add(int[] stack, int length, int hash) {
        if (size == ids.length) {
            int n = size * 2;
            ids = Arrays.copyOf(ids, n);
            hashes = Arrays.copyOf(hashes, n);
            samples = Arrays.copyOf(samples, n);
            weights = Arrays.copyOf(weights, n);
        }
        if ((size + 1) * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        int e = size++;
        ids[e] = Arrays.copyOf(stack, length);
        hashes[e] = hash;
        place(e);
        return e;
    }

    /** Counts samples and weight for an entry, each sum stopping at {@link Long#MAX_VALUE}. */
    void count(int entry, long sampleCount, long weightNanos) {
        samples[entry] = Counts.add(samples[entry], sampleCount);
        weights[entry] = Counts.add(weights[entry], weightNanos);
    }

    int size() {
        return size;
    }

    int[] ids(int entry) {
        return ids[entry];
    }

    long samples(int entry) {
        return samples[entry];
    }

    long weight(int entry) {
        return weights[entry];
    }

    /** Forgets every stack, keeping the arrays. */
    void clear() {
        Arrays.fill(slots, 0);
        Arrays.fill(ids, 0, size, null);
        Arrays.fill(samples, 0, size, 0);
        Arrays.fill(weights, 0, size, 0);
        size = 0;
    }

    private void rehash(int length) {
        slots = new int[length];
        for (int e = 0; e < size; e++) {
            place(e);
        }
    }

    private void place(int e) {
        int mask = slots.length - 1;
        int i = spread(hashes[e]) & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = e + 1;
    }

    private static int spread(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
