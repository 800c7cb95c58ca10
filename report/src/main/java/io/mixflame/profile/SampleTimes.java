package io.mixflame.profile;

/**
 * When a profile's samples were taken: entries in time order, each a number of samples of one stack (an index into
 * {@link Profile#stacks()}) within one time bucket starting at its time. A stack's samples that have no entry (its
 * profile's times were not recorded, or were past the bound) have no known time.
 */
public final class SampleTimes {

    /** No times known. */
    public static final SampleTimes NONE = new SampleTimes(new long[0], new int[0], new long[0], 0);
    /** The time of an entry of {@link Profile#sampleRuns()} whose samples have no known time. */
    public static final long NO_TIME = Long.MIN_VALUE;

    private final long[] epochNanos;
    private final int[] stacks;
    private final long[] counts;
    private final long resolutionNanos;

    SampleTimes(long[] epochNanos, int[] stacks, long[] counts, long resolutionNanos) {
        this.epochNanos = epochNanos;
        this.stacks = stacks;
        this.counts = counts;
        this.resolutionNanos = resolutionNanos;
    }

    /** Number of entries. */
    public int size() {
        return stacks.length;
    }

    /** The start of entry {@code i}'s bucket, in nanoseconds since the epoch. */
    public long epochNanos(int i) {
        return epochNanos[i];
    }

    /** The index of entry {@code i}'s stack in its profile's {@link Profile#stacks()}. */
    public int stack(int i) {
        return stacks[i];
    }

    /** How many samples entry {@code i} counts. */
    public long count(int i) {
        return counts[i];
    }

    /** How wide the buckets are: samples of one entry were taken within this long after its time; 0 without times. */
    public long resolutionNanos() {
        return resolutionNanos;
    }

    /**
     * The same times for stacks renumbered: {@code newIndex[old]} is a stack's new index, or negative when the stack
     * is gone; entries of stacks that become one are kept apart (a reader adds them up).
     */
    public SampleTimes remap(int[] newIndex) {
        int kept = 0;
        for (int s : stacks) {
            if (s < newIndex.length && newIndex[s] >= 0) {
                kept++;
            }
        }
        long[] t = new long[kept];
        int[] st = new int[kept];
        long[] c = new long[kept];
        int j = 0;
        for (int i = 0; i < stacks.length; i++) {
            int s = stacks[i];
            if (s < newIndex.length && newIndex[s] >= 0) {
                t[j] = epochNanos[i];
                st[j] = newIndex[s];
                c[j++] = counts[i];
            }
        }
        return new SampleTimes(t, st, c, resolutionNanos);
    }
}
