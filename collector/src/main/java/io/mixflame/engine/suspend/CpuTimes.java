package io.mixflame.engine.suspend;

import java.util.Arrays;

/**
 * The CPU time last seen of each listed thread, and which of them to ask again at a tick. Under Wine each
 * GetThreadTimes is a round trip through wineserver and an open, read and close of the thread's {@code /proc} stat
 * file (160 µs or more on a busy machine), asked of every thread at every tick: a JVM's twenty-odd threads cost a
 * tenth of a 10 ms interval or more, though most of them (GC and compiler threads, waiting ones) used nothing. A
 * thread that used no CPU (or less than the least worth a sample) over {@value #QUIET_POLLS} looks in a row is asked
 * again after 2 ticks, then 4, 8 and so
 * on up to {@value #QUIET_MOST_EVERY}, for as long as it stays quiet; once it has used some it is asked at every tick
 * again. Its growth is then all it used since the last look, so its share of the profile is kept, only found up to
 * that many ticks later. Arrays are indexed as the listing is.
 */
final class CpuTimes {
    static final int QUIET_POLLS = 4;
    /** The longest wait between two looks at a quiet thread, in ticks (a power of two). */
    static final int QUIET_MOST_EVERY = 32;
    /** Quiet looks in a row past which the wait no longer grows. */
    private static final int QUIET_MOST = QUIET_POLLS + Integer.numberOfTrailingZeros(QUIET_MOST_EVERY);

    private long[] last = new long[0];
    private int[] quiet = new int[0];
    private long least = 1;

    /**
     * Takes a new listing: each thread of {@code alive} that {@code listed} held keeps its last CPU time and how
     * long it has been quiet; new threads start unseen.
     */
    void relisted(int[] listed, int[] alive) {
        // Old threads as (tid, index) packed in sorted longs: found by tid without a map of boxed ids.
        long[] old = new long[listed.length];
        for (int i = 0; i < listed.length; i++) {
            old[i] = (long) listed[i] << 32 | i;
        }
        Arrays.sort(old);
        long[] cpu = new long[alive.length];
        int[] still = new int[alive.length];
        for (int i = 0; i < alive.length; i++) {
            int k = Arrays.binarySearch(old, (long) alive[i] << 32);
            int at = k >= 0 ? k : -k - 1;
            boolean known = at < old.length && (int) (old[at] >>> 32) == alive[i];
            cpu[i] = known ? last[(int) old[at]] : -1;
            still[i] = known ? quiet[(int) old[at]] : 0;
        }
        last = cpu;
        quiet = still;
    }

    /** Whether thread {@code i} of the listing is to be asked for its CPU time at tick {@code tick}. */
    boolean due(int i, long tick) {
        // Staggered by index: the quiet threads' looks spread over the ticks rather than all falling on one.
        return quiet[i] < QUIET_POLLS || ((tick + i) & (every(quiet[i]) - 1)) == 0;
    }

    /** Ticks between looks at a thread quiet for {@code looks} looks in a row (at least {@link #QUIET_POLLS}). */
    static int every(int looks) {
        return 1 << Math.min(looks - QUIET_POLLS + 1, QUIET_MOST - QUIET_POLLS);
    }

    /**
     * Sets the least growth worth a sample: a thread that used less since its last sample is not stopped for it yet
     * (with CPU times in nanoseconds, a thread that woke for microseconds would be stopped at every tick); what it
     * used is kept, and counted with the sample that the growth, once past this, brings.
     */
    void leastGrowth(long nanos) {
        least = Math.max(1, nanos);
    }

    /**
     * Records thread {@code i}'s CPU time {@code used} (negative when it could not be read).
     *
     * @return how much it grew since its last sample, or -1 when it did not grow by the least worth a sample (or a
     *         look failed)
     */
    long growth(int i, long used) {
        long before = last[i];
        if (used < 0 || before < 0 || used <= before) {
            last[i] = used;
            quiet[i] = Math.min(quiet[i] + 1, QUIET_MOST);
            return -1;
        }
        if (used - before < least) {
            quiet[i] = Math.min(quiet[i] + 1, QUIET_MOST);
            return -1;
        }
        last[i] = used;
        quiet[i] = 0;
        return used - before;
    }
}
